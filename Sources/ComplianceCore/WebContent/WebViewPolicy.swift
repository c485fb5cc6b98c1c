/// The data identity set on a web view or its container (`IntuneMAMWebViewPolicy`).
public enum WebViewPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// `IntuneMAMWebViewPolicyUnset`: the default; the view follows `TreatAllWebViewsAsUnmanaged`.
    case unset
    /// `IntuneMAMWebViewPolicyUnmanaged`: cut/copy/paste act as an unmanaged identity,
    /// whatever `TreatAllWebViewsAsUnmanaged` says.
    case unmanaged
    /// `IntuneMAMWebViewPolicyCurrentIdentity`: cut/copy/paste act as the current UI policy
    /// identity, whatever `TreatAllWebViewsAsUnmanaged` says.
    case currentIdentity
}

/// The current UI policy identity of the app.
public enum UIPolicyIdentity: Sendable, Hashable, Codable {
    /// No account, or the empty identity.
    case none
    /// A signed-in account that is not managed (no policy applies to it).
    case unmanaged(account: String)
    /// The managed account (case-insensitive UPN).
    case managed(account: String)
}

/// The identity that cut, copy and paste in a web view act as.
public enum DataIdentity: Sendable, Hashable, Codable {
    /// No policy applies: content copied out can go anywhere, pasting in is unrestricted.
    case unmanaged
    /// The managed account's policy applies: copied content is managed, pasting follows its policy.
    case managed(account: String)

    /// Decides the identity for one web view.
    ///
    /// - Parameters:
    ///   - policy: the view's effective policy (its own or inherited from a container).
    ///   - treatAllWebViewsAsUnmanaged: the app's `IntuneMAMSettings.TreatAllWebViewsAsUnmanaged`.
    ///   - uiIdentity: the current UI policy identity.
    public static func decide(
        policy: WebViewPolicy,
        treatAllWebViewsAsUnmanaged: Bool,
        uiIdentity: UIPolicyIdentity
    ) -> DataIdentity {
        guard case .managed(let account) = uiIdentity else { return .unmanaged }
        switch policy {
        case .unmanaged: return .unmanaged
        case .currentIdentity: return .managed(account: account)
        case .unset: return treatAllWebViewsAsUnmanaged ? .unmanaged : .managed(account: account)
        }
    }

    /// Whether the managed account's policy applies.
    public var isManaged: Bool {
        if case .managed = self { true } else { false }
    }
}
