/// What a caller's token, sign-in or remediation request brings, as the machine needs to know
/// it to decide how the request is asked (``ComplianceMachine/interaction(silent:credentials:)``).
public enum CallerCredentials: Sendable, Hashable, Codable {
    /// No person comes with the request.
    case none
    /// The test person who presses cancel on the sign-in page: no secret, nothing to ignore.
    case cancels
    /// A person who can sign in: a password, a browser, a device code.
    case person
}

extension ComplianceMachine {
    /// Whether a caller's request is asked interactively (a person signs in, skipping the
    /// cache), or why it is refused: a silent request carries no credentials, because a
    /// password sent with it would be ignored while the cache answered, so a wrong one would
    /// pass. A silent request with the person who cancels is silent; an interactive one with
    /// nobody is silent too (there is no one to ask).
    public static func interaction(silent: Bool, credentials: CallerCredentials) -> Result<Bool, Refusal> {
        switch (silent, credentials) {
        case (true, .person):
            .failure(Refusal(
                .badRequest, nil,
                "a silent request carries no credentials: drop the user's credentials, or ask interactively (\"silent\": false; compliancectl --interactive), which always goes to the issuer"))
        case (true, .none), (true, .cancels), (false, .none): .success(false)
        case (false, .cancels), (false, .person): .success(true)
        }
    }

    /// Why a token request for `scopes` cannot be asked: it names no scope (a sign-in naming
    /// none signs in with the app's sign-in scopes instead, ``signInScopes(_:)``).
    public static func tokenScopesRefusal(_ scopes: [String], account: AccountID) -> Refusal? {
        scopes.isEmpty ? Refusal(.badRequest, account, "scopes must name at least one scope") : nil
    }

    /// The scopes a sign-in asks for: the caller's, or the app's sign-in scopes when it names
    /// none (absent or empty).
    public func signInScopes(_ scopes: [String]?) -> [String] {
        guard let scopes, !scopes.isEmpty else { return configuration.signInScopes }
        return scopes
    }
}
