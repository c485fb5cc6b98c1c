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
    public static func parse(_ text: String, source: String = "The request body") throws(OAuthError) -> FormParameters {
        var form = FormParameters()
        // A token request has about six fields: one allocation each, not a regrowth per field.
        form.values.reserveCapacity(8)
        form.names.reserveCapacity(8)
        for field in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let separator = field.firstIndex(of: UInt8(ascii: "=")) ?? field.endIndex
            let rawName = field[..<separator]
            let rawValue = separator == field.endIndex ? field[separator...] : field[field.index(after: separator)...]
            guard let name = decode(rawName), let value = decode(rawValue) else {
                let near = String(decoding: rawName, as: UTF8.self).prefix(40)
                throw OAuthError.invalidRequest(code: 900144, "\(source) is not a valid form: bad percent-encoding near '\(near)'.")
            }
            guard form.values.updateValue(value, forKey: name) == nil else {
                throw OAuthError.invalidRequest(
                    code: 9000411, "The request is not properly formatted. The parameter '\(name)' is duplicated.")
            }
            form.names.append(name)
        }
        return form
    }

    /// A form-encoded request body: UTF-8 (AADSTS900144 otherwise), then ``parse(_:source:)``.
    public static func parse(body: [UInt8]) throws(OAuthError) -> FormParameters {
        guard let text = String(validating: body, as: UTF8.self) else {
            throw OAuthError.invalidRequest(code: 900144, "The request body is not valid UTF-8.")
        }
        return try parse(text)
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

    /// `+` → space, `%XX` → the byte; nil for a bad escape or bytes that are not UTF-8
    /// (as Foundation's `removingPercentEncoding` decides, without its string round trips).
    private static func decode(_ bytes: Substring.UTF8View) -> String? {
        guard bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                output.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index < bytes.endIndex, let high = hexValue(bytes[index]) else { return nil }
                bytes.formIndex(after: &index)
                guard index < bytes.endIndex, let low = hexValue(bytes[index]) else { return nil }
                bytes.formIndex(after: &index)
                output.append(high << 4 | low)
            default:
                output.append(byte)
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
