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
public struct AppConfig: Sendable, Hashable {
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
    public enum Query: String, Sendable, Hashable, CaseIterable {
        /// The first, in `fullData` order.
        case any
        /// The smallest (numbers numerically, strings by Unicode scalar order).
        case min
        /// The largest.
        case max
    }

    /// `IntuneMAMBoolQueryType`.
    public enum BoolQuery: String, Sendable, Hashable, CaseIterable {
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

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
