import AppProfile

extension EngineConfiguration {
    /// The configuration for the app `app` describes (its Info.plist's settings), as
    /// `clientID` (the profile's `ADALClientId` unless overridden), asking `signInScopes`
    /// when a sign-in names none; the hooks and the redirect port are the caller's.
    public init(app: AppSettings, clientID: String? = nil, signInScopes: [String]) {
        self.init(clientID: clientID ?? app.clientID, capabilities: app.capabilities, defaultSignInScopes: signInScopes, launch: app.launch)
        multiIdentity = app.multiIdentity
        webViews = app.webViews
    }
}
