/// URLs as they may be shown in messages, logs and errors.
public enum URLRedaction {
    /// `url` with the user information of its authority (`user:password@`) replaced by `***@`,
    /// so that a password given in a URL is never printed: `http://alice:pw@127.0.0.1:8080/x`
    /// → `http://***@127.0.0.1:8080/x`. A URL without user information comes back unchanged.
    public static func hidingUserInfo(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + "***" + url[at...]
    }
}
