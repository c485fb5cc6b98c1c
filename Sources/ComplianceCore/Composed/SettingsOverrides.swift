import JSON

/// The runtime overrides of the app's Microsoft Entra settings (`IntuneMAMSettings`
/// `aadAuthorityUriOverride`, `aadClientIdOverride`, `aadRedirectUriOverride`). The guide:
/// they "take precedence over any corresponding values specified in the Info.plist, and will
/// persist even after the app is restarted. The SDK will continue to use them for policy
/// check-ins until the user is unenrolled or the values are cleared or changed." The machine
/// stores them in its app record and clears them in the step that commits an unenrollment
/// (``ComplianceMachine/setSettingsOverrides(_:ticket:now:)``).
public struct SettingsOverrides: Sendable, Hashable, Codable {
    /// `aadAuthorityUriOverride`: the authority's URL.
    public var authority: String?
    /// `aadClientIdOverride`.
    public var clientID: String?
    /// `aadRedirectUriOverride`.
    public var redirectURI: String?

    public init(authority: String? = nil, clientID: String? = nil, redirectURI: String? = nil) {
        self.authority = authority
        self.clientID = clientID
        self.redirectURI = redirectURI
    }

    /// True when no value is overridden.
    public var isEmpty: Bool { authority == nil && clientID == nil && redirectURI == nil }

    /// The SDK's property names and their values (null: not overridden).
    public var json: JSONValue {
        .object(JSONObject([
            ("aadAuthorityUriOverride", authority.map { .string($0) } ?? .null),
            ("aadClientIdOverride", clientID.map { .string($0) } ?? .null),
            ("aadRedirectUriOverride", redirectURI.map { .string($0) } ?? .null),
        ]))
    }

    /// Reads ``json`` as stored; throws naming the member that cannot be read.
    public init(stored value: JSONValue, path: String) throws(StoredValueError) {
        let reader = try StoredReader(value, path: path)
        func text(_ key: String) throws(StoredValueError) -> String? { reader.has(key) ? try reader.string(key) : nil }
        self.init(authority: try text("aadAuthorityUriOverride"), clientID: try text("aadClientIdOverride"), redirectURI: try text("aadRedirectUriOverride"))
    }

    /// The longest authority URL accepted.
    public static let maxAuthorityLength = 2048

    /// Why a value cannot be an override, or nil: the authority must be an http(s) URL with a
    /// host, without user information (`user:password@`), query or fragment, at most
    /// ``maxAuthorityLength`` characters; the client id 1 to 256 printable ASCII characters
    /// without spaces; the redirect a URI with a scheme (`scheme:…`). A refused authority is
    /// never quoted back whole (it may hold a password): only what is wrong with it.
    public static func problem(authority: String?, clientID: String?, redirectURI: String?) -> String? {
        if let authority, let problem = authorityProblem(authority, name: "aadAuthorityUriOverride") { return problem }
        if let clientID, clientID.isEmpty || clientID.utf8.count > 256 || !clientID.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) {
            return "aadClientIdOverride must be 1 to 256 printable ASCII characters without spaces"
        }
        if let redirectURI {
            let scheme = Array(redirectURI.utf8.prefix { $0 != UInt8(ascii: ":") })
            let isLetter = { (byte: UInt8) in (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            let isSchemeByte = { (byte: UInt8) in isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "+-.".utf8.contains(byte) }
            guard scheme.count < redirectURI.utf8.count, let first = scheme.first, isLetter(first), scheme.allSatisfy(isSchemeByte),
                  redirectURI.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else { return "aadRedirectUriOverride must be a URI with a scheme, such as msauth.com.contoso.app://auth, got '\(redirectURI)'" }
            // RFC 6749 3.1.2: "The endpoint URI MUST NOT include a fragment component"; user
            // information would be a credential in every authorization request.
            if redirectURI.contains("#") { return "aadRedirectUriOverride must not hold a fragment (#…)" }
            let afterScheme = redirectURI.utf8.dropFirst(scheme.count + 1)
            if afterScheme.starts(with: "//".utf8),
               String(decoding: afterScheme.dropFirst(2), as: UTF8.self).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first?.contains("@") == true {
                return "aadRedirectUriOverride must not hold user information (user@host)"
            }
        }
        return nil
    }

    /// Why `authority` cannot be an authority URL, or nil (the rules of ``problem(authority:clientID:redirectURI:)``);
    /// `name` is what the message calls it. The URL is never quoted back (it may hold a password).
    public static func authorityProblem(_ authority: String, name: String) -> String? {
        let example = "such as https://login.microsoftonline.com/contoso.com"
        guard authority.utf8.count <= maxAuthorityLength else {
            return "\(name) must be at most \(maxAuthorityLength) characters, got \(authority.utf8.count)"
        }
        let lower = authority.lowercased()
        let rest = lower.hasPrefix("https://") ? lower.dropFirst(8) : lower.hasPrefix("http://") ? lower.dropFirst(7) : nil
        guard let rest, let host = rest.split(separator: "/", omittingEmptySubsequences: false).first, !host.isEmpty,
              authority.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return "\(name) must be an http(s) URL with a host, \(example)" }
        if host.contains("@") {
            return "\(name) must not hold user information (user:password@host): credentials do not belong in an authority URL"
        }
        if rest.contains("#") { return "\(name) must not hold a fragment (#…), \(example)" }
        if rest.contains("?") { return "\(name) must not hold a query (?…), \(example)" }
        if let problem = hostProblem(String(host)) { return "\(name): \(problem), \(example)" }
        return nil
    }

    /// What is wrong with an authority's `host[:port]` (lowercased), or nil: a name of
    /// letters, digits, `-` and `.`, or a bracketed IPv6 literal, then at most a port of 1 to
    /// 65535.
    static func hostProblem(_ hostAndPort: String) -> String? {
        var name = Substring(hostAndPort)
        var port: Substring?
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return "the IPv6 host lacks its closing ]" }
            let literal = name[name.index(after: name.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return "the IPv6 host is not an address" }
            let after = name[name.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "the IPv6 host is followed by something other than a port" }
                port = after.dropFirst()
            }
            name = literal
        } else {
            if let colon = name.firstIndex(of: ":") {
                port = name[name.index(after: colon)...]
                name = name[..<colon]
            }
            guard !name.isEmpty, name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }) else {
                return "the host must be letters, digits, '-' and '.'"
            }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), (1...65535).contains(number) else {
                return "the port must be a number from 1 to 65535"
            }
        }
        return nil
    }
}
