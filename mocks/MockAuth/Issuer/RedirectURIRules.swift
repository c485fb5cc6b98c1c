/// What makes a redirect URI unusable whatever is registered (issue 41 point 7), as Entra
/// refuses it: a fragment (RFC 6749 §3.1.2: "MUST NOT include a fragment component"), user
/// information before the host (`http://user:pw@localhost/`, which would otherwise match a
/// loopback registration and carry the code to a URL a person reads as another host), and a
/// port outside 1–65535.
enum RedirectURIRules {
    /// Why `uri` can never be a redirect URI, or nil when its shape is acceptable.
    static func problem(_ uri: String) -> String? {
        if uri.contains("#") { return "must not contain a fragment ('#', RFC 6749 §3.1.2)" }
        if let scheme = uri.range(of: "://"), uri[scheme.upperBound...].prefix(while: { $0 != "/" && $0 != "?" }).contains("@") {
            return "must not contain user information ('user@' before the host)"
        }
        guard let port = explicitPort(uri) else { return nil }
        guard port.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), !port.isEmpty,
            port.utf8.count <= 5, let number = Int(port), (1...65535).contains(number)
        else { return "has a port outside 1-65535 ('\(port)')" }
        return nil
    }

    /// The text after the authority's port colon, if the authority has one (`[::1]:8080` → `8080`).
    static func explicitPort(_ uri: String) -> Substring? {
        guard let scheme = uri.range(of: "://") else { return nil }
        let rest = uri[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let afterHost = hostAndPort.hasPrefix("[") ? hostAndPort.drop { $0 != "]" }.dropFirst() : hostAndPort
        guard let colon = afterHost.firstIndex(of: ":") else { return nil }
        return afterHost[afterHost.index(after: colon)...]
    }
}

extension RedirectURIRules {
    /// Why a fixture cannot register `uri` (Entra's registration rules, which its portal
    /// enforces): it is not an absolute URI (`scheme://…`, or the out-of-band URN), so no
    /// client can ever be sent to it; it is `http` on a host other than the loopback
    /// (`localhost`, `127.0.0.1`, `[::1]`); or, for the single-page-application platform,
    /// its scheme is neither `https` nor loopback `http`. Nil when it can be registered.
    static func registrationProblem(_ uri: String, spa: Bool) -> String? {
        if uri == "urn:ietf:wg:oauth:2.0:oob", !spa { return nil }
        guard let separator = uri.range(of: "://"), let first = uri.first, first.isLetter,
            uri[..<separator.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else { return "is not an absolute URI (scheme://…): no client can be redirected to it" }
        let scheme = uri[..<separator.lowerBound].lowercased()
        let authority = uri[separator.upperBound...].prefix { $0 != "/" && $0 != "?" }
        let host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" } + "]" : authority.prefix { $0 != ":" }
        let loopback = ["localhost", "127.0.0.1", "[::1]"].contains(host.lowercased())
        if scheme == "http", !loopback { return "uses http on a host other than the loopback; Entra accepts http only for localhost, 127.0.0.1 and [::1]" }
        if spa, scheme != "https", scheme != "http" { return "is not https (or loopback http): a single-page app is redirected in a browser" }
        return nil
    }
}
