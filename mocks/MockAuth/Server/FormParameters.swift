import Foundation

/// `application/x-www-form-urlencoded` parameters (a form body or a query string).
///
/// A name given twice is refused, as Entra refuses it (AADSTS9000411).
public struct FormParameters: Sendable, Hashable {
    private var values: [String: String]
    /// Names in the order they first appeared.
    public private(set) var names: [String]

    /// Pairs in order; a repeated name keeps its first value.
    public init(_ pairs: [(String, String)] = []) {
        values = [:]
        names = []
        for (name, value) in pairs where values[name] == nil {
            values[name] = value
            names.append(name)
        }
    }

    public subscript(name: String) -> String? { values[name] }

    /// The value when present and not empty.
    public func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// Parses `a=1&b=two+words&c=%2F`; throws on bad percent-encoding or a repeated name.
    public static func parse(_ text: String) throws(OAuthError) -> FormParameters {
        var pairs: [(String, String)] = []
        var seen = Set<String>()
        for field in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw OAuthError.invalidRequest(
                    code: 900144, "The request body is not a valid form: bad percent-encoding near '\(parts[0].prefix(40))'.")
            }
            guard seen.insert(name).inserted else {
                throw OAuthError.invalidRequest(
                    code: 9000411, "The request is not properly formatted. The parameter '\(name)' is duplicated.")
            }
            pairs.append((name, value))
        }
        return FormParameters(pairs)
    }

    /// Encodes pairs for a query string or form body.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
