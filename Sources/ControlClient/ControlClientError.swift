/// Why a control API call did not succeed.
public struct ControlClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable, CustomStringConvertible {
        /// No daemon listens on the socket (missing, refused, not a socket).
        case unreachable
        /// The daemon took longer than the client's timeout.
        case timeout
        /// The daemon answered with a non-JSON body where JSON was expected.
        case invalidResponse
        /// The daemon answered 4xx/5xx with its error `code` (`bad_request`, `sign_in_refused`, …).
        case refused(status: Int, code: String)

        public var description: String {
            switch self {
            case .unreachable: "unreachable"
            case .timeout: "timeout"
            case .invalidResponse: "invalidResponse"
            case .refused(let status, let code): "\(code) (HTTP \(status))"
            }
        }
    }

    public let code: Code
    /// The daemon's message, or what went wrong on the way.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The daemon's error code of a refused call (`sign_in_refused`, …), nil otherwise.
    public var apiCode: String? {
        if case .refused(_, let code) = code { return code }
        return nil
    }

    public var description: String { "\(code): \(message)" }
}
