import JSON

/// An account's MAM app configuration (`IntuneMAMAppConfig`), read from the `appConfig` the MAM
/// service sends with the policy: `fullData`, one object per configuration that targets the
/// account, the tenant-wide default marked `"__IsDefault": true`.
///
/// The SDK header's rules: a targeted configuration takes precedence over the tenant default,
/// whose value counts only when it is the only one; `hasConflict` is true when more than one
/// targeted configuration sets the key and their values are not all identical. Where the
/// header is silent (which value "any" returns, how strings compare), the decisions are in
/// AppConfig/README.md.
public struct AppConfig: Sendable, Hashable, Codable {
    /// `fullData`: the configurations, in the order the service sent them.
    public let fullData: [JSONObject]

    /// The key the tenant default carries.
    public static let defaultMarker = "__IsDefault"

    public init(fullData: [JSONObject]) {
        self.fullData = fullData
    }

    /// The configuration in a policy document (`appConfig`); empty when it has none.
    public init(policyDocument: JSONObject?) {
        self.init(fullData: policyDocument?["appConfig"]?.arrayValue?.compactMap(\.objectValue) ?? [])
    }

    /// The empty configuration (an unmanaged account's, or before enrollment).
    public static let empty = AppConfig(fullData: [])

    /// `IntuneMAMStringQueryType` / `IntuneMAMNumberQueryType`: which of several values.
    public enum Query: String, Sendable, Hashable, CaseIterable, Codable {
        /// The first, in `fullData` order.
        case any
        /// The smallest (numbers numerically, strings by Unicode scalar order).
        case min
        /// The largest.
        case max
    }

    /// `IntuneMAMBoolQueryType`.
    public enum BoolQuery: String, Sendable, Hashable, CaseIterable, Codable {
        /// The first, in `fullData` order.
        case any
        /// True when any value is true.
        case or
        /// True when every value is true.
        case and
    }

    /// Every query's name (``Query`` and ``BoolQuery``), as the control API, the CLI and flows
    /// write them: `any`, `min`, `max`, `or`, `and`.
    public static let queryNames: [String] = Query.allCases.map(\.rawValue) + BoolQuery.allCases.filter { $0 != .any }.map(\.rawValue)

    /// Every key any configuration sets, sorted.
    public var keys: [String] {
        Set(fullData.flatMap { $0.map(\.0) }).subtracting([Self.defaultMarker]).sorted()
    }

    private func isDefault(_ object: JSONObject) -> Bool { object[Self.defaultMarker]?.boolValue == true }

    /// The values that count for `key`: the targeted ones, or the default's when none is targeted.
    private func values(_ key: String) -> [String] {
        let targeted = fullData.filter { !isDefault($0) }.compactMap { $0[key]?.stringValue }
        if !targeted.isEmpty { return targeted }
        return fullData.filter(isDefault).compactMap { $0[key]?.stringValue }
    }

    /// `hasConflict`: more than one targeted value, not all identical (the default never conflicts).
    public func hasConflict(_ key: String) -> Bool {
        Set(fullData.filter { !isDefault($0) }.compactMap { $0[key]?.stringValue }).count > 1
    }

    /// `allStringsForKey`: every value that counts (empty when none).
    public func allStrings(_ key: String) -> [String] { values(key) }

    /// `allNumbersForKey`: the values that read as numbers.
    public func allNumbers(_ key: String) -> [Double] { values(key).compactMap { Double($0.trimmingSpaces) } }

    /// `allBoolsForKey`: the values that read as `true` or `false` (any case).
    public func allBools(_ key: String) -> [Bool] {
        values(key).compactMap { text in
            switch text.trimmingSpaces.lowercased() {
            case "true": true
            case "false": false
            default: nil
            }
        }
    }

    /// `stringValueForKey:queryType:`; nil when no value counts.
    public func stringValue(_ key: String, query: Query = .any) -> String? {
        let all = allStrings(key)
        switch query {
        case .any: return all.first
        case .min: return all.min { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        case .max: return all.max { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        }
    }

    /// `numberValueForKey:queryType:`.
    public func numberValue(_ key: String, query: Query = .any) -> Double? {
        let all = allNumbers(key)
        switch query {
        case .any: return all.first
        case .min: return all.min()
        case .max: return all.max()
        }
    }

    /// `boolValueForKey:queryType:`.
    public func boolValue(_ key: String, query: BoolQuery = .any) -> Bool? {
        let all = allBools(key)
        guard !all.isEmpty else { return nil }
        switch query {
        case .any: return all.first
        case .or: return all.contains(true)
        case .and: return all.allSatisfy { $0 }
        }
    }
}

extension AppConfig {
    /// One key's value under one query, each way the SDK reads it.
    public struct KeyAnswer: Sendable, Hashable, Codable {
        public var key: String
        /// The query's name as asked (`any` when none was).
        public var query: String
        public var hasConflict: Bool
        public var allStrings: [String]
        public var string: String?
        public var number: Double?
        public var bool: Bool?
    }

    /// `key`'s value under `query` (a name of ``queryNames``; nil: `any`). A query of the
    /// other kind is `any` for that kind (`min` reads the first boolean; `or` the first
    /// string and number), as the SDK's typed query enums cannot mix. Nil for a query that is
    /// not one of ``queryNames``.
    public func answer(_ key: String, query: String?) -> KeyAnswer? {
        if let query, !Self.queryNames.contains(query) { return nil }
        let valueQuery = query.flatMap(Query.init(rawValue:)) ?? .any
        let boolQuery = query.flatMap(BoolQuery.init(rawValue:)) ?? .any
        return KeyAnswer(
            key: key, query: query ?? Query.any.rawValue, hasConflict: hasConflict(key), allStrings: allStrings(key),
            string: stringValue(key, query: valueQuery), number: numberValue(key, query: valueQuery), bool: boolValue(key, query: boolQuery))
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
