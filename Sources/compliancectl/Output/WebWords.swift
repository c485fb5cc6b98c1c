import ComplianceCore
import JSON

/// Plain words for web-content decisions (the names are ComplianceCore's, via Flows' WebNames).
enum WebWords {
    /// What a decision's name means, in a few words.
    static func explain(_ name: String) -> String {
        switch name {
        case "loadInView": "the page loads in the web view"
        case "openInManagedBrowser": "the page opens in the managed browser instead of the web view"
        case "blocked": "the link is not followed: the managed browser cannot open it"
        case "load": "the page loads"
        case "appBoundDomainFailure": "the navigation fails with \"\(AppBoundWebViewSession.appBoundDomainFailure)\""
        case "allow": "the call runs"
        case "denyNotAppBound": "the call fails: the top frame is not on app-bound content"
        case "denyNavigationsNotLimited": "the call fails: the view does not set limitsNavigationsToAppBoundDomains"
        case "denyAppBoundDomainFailure": "the call fails with the App-bound domain error of the navigation just refused"
        default: name
        }
    }

    static func explain(_ identity: DataIdentity) -> String {
        identity.isManaged
            ? "copied content is managed, pasting follows the account's policy"
            : "no policy applies: copied content can go anywhere"
    }

    /// `{"kind": "managed", "account": …}` or `{"kind": "unmanaged"}`.
    static func json(_ identity: DataIdentity) -> JSONValue { identity.json }

    /// `{"kind": "managed" | "unmanaged", "account": …}` or `{"kind": "none"}`.
    static func json(_ identity: UIPolicyIdentity) -> JSONValue { identity.json }

    /// The delegate's internal locations: `https://x/doc`, `https://x/team/…`, `host contoso.com`; `nothing` when none.
    static func describe(_ rule: ExternalURLRule) -> String {
        guard !rule.internalLocations.isEmpty else { return "nothing" }
        return rule.internalLocations.map { match in
            switch match {
            case .url(let url): url
            case .prefix(let prefix): prefix + "…"
            case .host(let host): "host \(host)"
            }
        }.joined(separator: ", ")
    }

    /// `{"url": …}`, `{"prefix": …}` or `{"host": …}`.
    static func json(_ match: ExternalURLRule.Match) -> JSONValue {
        switch match {
        case .url(let url): ["url": .string(url)]
        case .prefix(let prefix): ["prefix": .string(prefix)]
        case .host(let host): ["host": .string(host)]
        }
    }

    /// `yes` or `no`.
    static func yesNo(_ flag: Bool) -> String { flag ? "yes" : "no" }
}
