import ComplianceCore
import JSON

/// An account's MAM app configuration as the SDK's `IntuneMAMAppConfig` gives it to the app.
extension Engine {
    /// `upn`'s configuration: `account`, `managed`, `fullData`, `keys`; with `key`, also
    /// `value` = `{key, query, hasConflict, allStrings, string, number, bool}` where `string` and
    /// `number` use `query` when it is `any`, `min` or `max` (else `any`), and `bool` uses it
    /// when it is `any`, `or` or `and` (else `any`). The account must be known.
    public func appConfig(_ upn: String, key: String?, query: String?) throws(EngineError) -> JSONObject {
        let account = try knownAccount(upn)
        if let query, !AppConfig.queryNames.contains(query) {
            throw EngineError(.badRequest, "'query' must be one of \(AppConfig.queryNames.joined(separator: ", ")), got '\(query)'")
        }
        let config = machine.appConfig(for: account)
        var answer: JSONObject = [
            "account": .string(account.key), "managed": .bool(machine.view(of: account)?.managed == true),
            "fullData": .array(config.fullData.map { .object($0) }), "keys": .array(config.keys.map { .string($0) }),
        ]
        if let key {
            let valueQuery = query.flatMap(AppConfig.Query.init(rawValue:)) ?? .any
            let boolQuery = query.flatMap(AppConfig.BoolQuery.init(rawValue:)) ?? .any
            answer["value"] = [
                "key": .string(key), "query": .string(query ?? "any"), "hasConflict": .bool(config.hasConflict(key)),
                "allStrings": .array(config.allStrings(key).map { .string($0) }),
                "string": config.stringValue(key, query: valueQuery).map { .string($0) } ?? .null,
                "number": config.numberValue(key, query: valueQuery).map { .double($0) } ?? .null,
                "bool": config.boolValue(key, query: boolQuery).map { .bool($0) } ?? .null,
            ]
        }
        return answer
    }
}
