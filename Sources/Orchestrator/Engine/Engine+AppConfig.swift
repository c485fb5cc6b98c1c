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
        if let key {
            let valueQuery = query.flatMap(AppConfig.Query.init(rawValue:)) ?? .any
            let boolQuery = query.flatMap(AppConfig.BoolQuery.init(rawValue:)) ?? .any
            answer.value = AppConfigAnswer.Value(
                key: key, query: query ?? "any", hasConflict: config.hasConflict(key), allStrings: config.allStrings(key),
                string: config.stringValue(key, query: valueQuery), number: config.numberValue(key, query: valueQuery),
                bool: config.boolValue(key, query: boolQuery))
        }
        return answer
    }
}

/// An account's MAM app configuration (``Engine/appConfig(_:key:query:)``).
public struct AppConfigAnswer: Sendable, Hashable {
    /// One key's value under a query.
    public struct Value: Sendable, Hashable {
        public var key: String
        public var query: String
        public var hasConflict: Bool
        public var allStrings: [String]
        public var string: String?
        public var number: Double?
        public var bool: Bool?
    }

    public var account: AccountID
    public var managed: Bool
    public var config: AppConfig
    /// The key asked for, if one was.
    public var value: Value?
}
