import JSON

/// What a daemon action's answer must show (every field optional; flows/README.md).
public struct StepExpectation: Sendable {
    /// Compliance status: a name (`Compliant`) or the SDK code (0).
    public var status: JSONValue?
    public var signedIn: Bool?
    /// Enrollment status of the report or the deregistration: a name or a code.
    public var enrollmentStatus: JSONValue?
    public var remediated: Bool?
    /// Where the token came from: `true` the daemon's cache, `false` the issuer.
    public var fromCache: Bool?
    /// `false`: no token; an object: the access token's claims include these.
    public var token: JSONValue?
    /// The server failure before remediation, partially matched (`{"errorCodes": [53005]}`).
    public var failure: JSONValue?
    /// The control API must refuse the call with this error code (`sign_in_refused`).
    public var error: String?
    /// The report's or the error's message contains this text.
    public var messageContains: String?
    public var wiped: Bool?
    /// Timers an advanceClock fired, in order (`checkIn`, `enrollmentRetry`).
    public var fired: [String]?
    /// A `setUIIdentity`'s result (`Success`, `Canceled`, `NotAllowed`, `Failed`).
    public var result: String?
    /// A `readData`'s content (UTF-8 text).
    public var text: String?

    public init() {}

    public var isEmpty: Bool {
        status == nil && signedIn == nil && enrollmentStatus == nil && remediated == nil && fromCache == nil && token == nil && failure == nil
            && error == nil && messageContains == nil && wiped == nil && fired == nil && result == nil && text == nil
    }
}
