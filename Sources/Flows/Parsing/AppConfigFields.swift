import ComplianceCore
import JSON

/// `expectAppConfig`: `account`, `key`, `query` (`any`, `min`, `max`, `or`, `and`), and what
/// the answer must show: `keys` [every key set], `configurations` (how many in `fullData`), and
/// for the key `string`, `number`, `bool` (each may be `null`: no value), `all` [values],
/// `hasConflict`.
extension CheckFields {
    static func appConfig(_ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction {
        let step = "expectAppConfig"
        let account = try fields.string("account")
        let key = try fields.optionalString("key")
        let query = try fields.optionalString("query")
        if let query, !AppConfig.queryNames.contains(query) {
            throw fail("\(step): 'query' must be any, min, max, or or and, found \"\(query)\"")
        }
        var expected = JSONObject()
        if let keys = try fields.strings("keys") { expected["keys"] = .array(keys.sorted().map { .string($0) }) }
        if let count = fields.value("configurations") {
            guard let number = count.intValue, number >= 0 else { throw fail("\(step): 'configurations' must be a whole number") }
            expected["fullData"] = .array(Array(repeating: JSONValue.object(JSONObject()), count: Int(number)))
        }
        var value = JSONObject()
        for (name, kinds) in [("string", "string"), ("number", "number"), ("bool", "boolean")] {
            guard let given = fields.value(name) else { continue }
            guard given == .null || given.kindName == kinds || (kinds == "number" && given.doubleValue != nil) else {
                throw fail("\(step): '\(name)' must be a \(kinds) or null")
            }
            value[name] = given
        }
        if let all = try fields.strings("all") { value["allStrings"] = .array(all.map { .string($0) }) }
        if let conflict = try fields.optionalBool("hasConflict") { value["hasConflict"] = .bool(conflict) }
        if !value.isEmpty {
            guard key != nil else { throw fail("\(step): 'string', 'number', 'bool', 'all' and 'hasConflict' need 'key'") }
            expected["value"] = .object(value)
        }
        if query != nil, key == nil { throw fail("\(step): 'query' needs 'key'") }
        guard !expected.isEmpty else { throw fail("\(step): name at least one of keys, configurations, string, number, bool, all, hasConflict") }
        return .expectAppConfig(account: account, key: key, query: query, expected: expected)
    }
}
