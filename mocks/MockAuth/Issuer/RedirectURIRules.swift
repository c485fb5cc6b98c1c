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
