import ComplianceCore

/// An account's MAM app configuration as the SDK's `IntuneMAMAppConfig` gives it to the app.
extension Engine {
    /// `upn`'s configuration, and with `key` its value under `query` (`any`, `min`, `max` for
    /// strings and numbers; `any`, `or`, `and` for booleans; a query of the other kind is `any`).
    /// The account must be known.
    public func appConfig(_ upn: String, key: String?, query: String?) throws(EngineError) -> AppConfigAnswer {
        let account = try knownAccount(upn)
        if let query, !AppConfig.queryNames.contains(query) {
            throw EngineError(.badRequest, "'query' must be one of \(AppConfig.queryNames.joined(separator: ", ")), got '\(query)'")
        }
        let config = machine.appConfig(for: account)
        var answer = AppConfigAnswer(account: account, managed: machine.view(of: account)?.managed == true, config: config)
        answer.value = key.flatMap { config.answer($0, query: query) }
        return answer
    }
}

/// An account's MAM app configuration (``Engine/appConfig(_:key:query:)``).
public struct AppConfigAnswer: Sendable, Hashable {
    public var account: AccountID
    public var managed: Bool
    public var config: AppConfig
    /// The key asked for, if one was.
    public var value: AppConfig.KeyAnswer?
}
