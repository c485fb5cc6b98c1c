/// An app's `isExternalURL:` answer as data: the URLs it treats as internal; every other URL
/// is external.
///
/// Internal means "an organizational location where user or organizational data can be
/// pasted in"; external means "could leak organizational data" (Intune's
/// `IntuneMAMWebViewPolicyDelegate`).
public struct ExternalURLRule: Sendable, Hashable, Codable {
    /// One way a URL can be internal.
    public enum Match: Sendable, Hashable, Codable {
        /// Exactly this URL (scheme and host compared case-insensitively, the rest exactly;
        /// the fragment is ignored). The web-view guide's web view E: "the same as the URL for
        /// the document".
        case url(String)
        /// Same scheme and host as the prefix, and a path that starts with the prefix's path.
        /// `https://docs.contoso.com/team/` never matches `https://docs.contoso.com.evil.example/`.
        case prefix(String)
        /// This host or any of its subdomains, on any scheme.
        case host(String)
    }

    /// The internal locations.
    public var internalLocations: [Match]

    public init(internal internalLocations: [Match]) {
        self.internalLocations = internalLocations
    }

    /// What the delegate's `isExternalURL:` returns for `url`: `false` for an internal location.
    public func isExternal(_ url: WebURL) -> Bool {
        !internalLocations.contains { Self.matches($0, url) }
    }

    private static func matches(_ match: Match, _ url: WebURL) -> Bool {
        switch match {
        case .url(let text):
            guard let wanted = WebURL(text) else { return false }
            return url.scheme == wanted.scheme && url.host == wanted.host
                && withoutSchemeAndFragment(url) == withoutSchemeAndFragment(wanted)
        case .prefix(let text):
            guard let prefix = WebURL(text) else { return false }
            return url.scheme == prefix.scheme && url.host == prefix.host && url.path.hasPrefix(prefix.path)
        case .host(let host):
            guard let urlHost = url.host else { return false }
            let wanted = host.lowercased()
            return urlHost == wanted || urlHost.hasSuffix("." + wanted)
        }
    }

    /// Everything after the authority, fragment dropped (the host was compared on its own).
    private static func withoutSchemeAndFragment(_ url: WebURL) -> Substring {
        var text = Substring(url.string.dropFirst(url.scheme.count + 1))
        if text.hasPrefix("//") {
            text = text.dropFirst(2)
            text = text[(text.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex)...]
        }
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        return text
    }
}
