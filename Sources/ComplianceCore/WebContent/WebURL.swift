/// A URL as the web-content decisions see it: scheme, host and path, parsed without Foundation.
///
/// Only what the decisions need is kept. The scheme and host are lower-cased (both are
/// case-insensitive); the path keeps its case. A URL without an authority (`data:`, `mailto:`)
/// has no host, and everything after the colon is its path.
public struct WebURL: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The text the URL was parsed from, unchanged.
    public let string: String
    /// The scheme, lower-cased, without the colon (`https`, `file`, `data`).
    public let scheme: String
    /// The host, lower-cased, without user info or port; `nil` when the URL has no authority.
    public let host: String?
    /// The path (for URLs without an authority: everything after the scheme's colon, query excluded).
    public let path: String

    /// Parses `string`; `nil` when it does not start with a valid scheme followed by a colon.
    public init?(_ string: String) {
        let scalars = Array(string.unicodeScalars)
        guard let colon = scalars.firstIndex(of: ":"), colon > 0, Self.isValidScheme(scalars[..<colon]) else {
            return nil
        }
        self.string = string
        self.scheme = String(String.UnicodeScalarView(scalars[..<colon])).lowercased()
        var rest = scalars[(colon + 1)...]
        if rest.starts(with: ["/", "/"]) {
            rest = rest.dropFirst(2)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            self.host = Self.host(ofAuthority: rest[..<authorityEnd])
            rest = rest[authorityEnd...]
        } else {
            self.host = nil
        }
        let pathEnd = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        self.path = String(String.UnicodeScalarView(rest[..<pathEnd]))
    }

    public var description: String { string }

    /// Whether the scheme is `http` or `https`.
    public var isWeb: Bool { scheme == "http" || scheme == "https" }

    private static func isValidScheme(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first, first.isASCIILetter else { return false }
        return scalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// The host part of `user:password@host:port`; brackets of an IPv6 literal are kept.
    private static func host(ofAuthority authority: ArraySlice<Unicode.Scalar>) -> String? {
        var hostPart = authority
        if let at = hostPart.lastIndex(of: "@") { hostPart = hostPart[(at + 1)...] }
        if hostPart.first == "[" {
            if let close = hostPart.firstIndex(of: "]") { hostPart = hostPart[...close] }
        } else if let portColon = hostPart.firstIndex(of: ":") {
            hostPart = hostPart[..<portColon]
        }
        let host = String(String.UnicodeScalarView(hostPart)).lowercased()
        return host.isEmpty ? nil : host
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
