/// An app as iOS developers describe it: its Info.plist and, optionally, its entitlements.
///
/// Every key the profile knows (``ProfileKeys``) has been checked for its type, so the
/// accessors never meet a value of the wrong type; unknown keys are kept as they are.
public struct AppProfile: Sendable, Hashable {
    /// The Info.plist's root dictionary.
    public private(set) var info: [String: PlistValue]
    /// The entitlements' root dictionary, when an entitlements file is part of the profile.
    public private(set) var entitlements: [String: PlistValue]?

    /// Checks the known keys' types.
    /// - Parameters:
    ///   - infoName, entitlementsName: how errors name the two files.
    /// - Throws: ``AppProfileError/Code/wrongValueType`` naming the file and the key.
    public init(
        info: [String: PlistValue],
        entitlements: [String: PlistValue]? = nil,
        infoName: String = "Info.plist",
        entitlementsName: String = "entitlements"
    ) throws(AppProfileError) {
        try Self.check(info, types: ProfileKeys.infoTypes, prefix: "", file: infoName)
        for (index, type) in (info[ProfileKeys.urlTypes]?.arrayValue ?? []).enumerated() {
            guard let type = type.dictionaryValue else { continue }
            try Self.check(type, types: ProfileKeys.urlTypeTypes, prefix: "\(ProfileKeys.urlTypes)[\(index)].", file: infoName)
        }
        if let settings = info[ProfileKeys.intuneMAMSettings]?.dictionaryValue {
            try Self.check(settings, types: ProfileKeys.settingTypes, prefix: ProfileKeys.intuneMAMSettings + ".", file: infoName)
        }
        if let entitlements {
            try Self.check(entitlements, types: ProfileKeys.entitlementTypes, prefix: "", file: entitlementsName)
        }
        self.info = info
        self.entitlements = entitlements
    }

    /// Reads the two files (XML plists with a dictionary root) and checks them.
    public static func load(infoPlist: String, entitlements: String? = nil) throws(AppProfileError) -> AppProfile {
        let info = try PlistFile.read(infoPlist)
        let entitlementsRoot: [String: PlistValue]?
        if let entitlements { entitlementsRoot = try PlistFile.read(entitlements) } else { entitlementsRoot = nil }
        return try AppProfile(info: info, entitlements: entitlementsRoot, infoName: infoPlist, entitlementsName: entitlements ?? "entitlements")
    }

    private static func check(
        _ dictionary: [String: PlistValue], types: [String: ProfileKeys.ValueType], prefix: String, file: String
    ) throws(AppProfileError) {
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard let type = types[key], !value.matches(type) else { continue }
            var found = value.typeName
            if type == .stringArray, let array = value.arrayValue, let bad = array.firstIndex(where: { $0.stringValue == nil }) {
                found = "an array whose item \(bad) is \(Self.article(array[bad].typeName)) \(array[bad].typeName)"
            }
            if type == .dictionaryArray, let array = value.arrayValue, let bad = array.firstIndex(where: { $0.dictionaryValue == nil }) {
                found = "an array whose item \(bad) is \(Self.article(array[bad].typeName)) \(array[bad].typeName)"
            }
            throw AppProfileError(
                code: .wrongValueType, file: file, keyPath: prefix + key,
                message: "expected \(Self.article(type.rawValue)) \(type.rawValue), found \(found)")
        }
    }

    /// "an" before a vowel, else "a".
    private static func article(_ noun: String) -> String {
        noun.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    // MARK: Reading

    /// The `IntuneMAMSettings` dictionary, empty when absent.
    public var intuneSettings: [String: PlistValue] { info[ProfileKeys.intuneMAMSettings]?.dictionaryValue ?? [:] }

    /// A string setting; `nil` when absent or empty.
    public func setting(_ key: String) -> String? {
        guard let value = intuneSettings[key]?.stringValue, !value.isEmpty else { return nil }
        return value
    }

    /// A boolean setting; `false` when absent (every boolean setting defaults to NO but
    /// `SupportsDarkMode`).
    public func flag(_ key: String) -> Bool { intuneSettings[key]?.boolValue ?? false }

    /// `CFBundleIdentifier`, when set.
    public var bundleIdentifier: String? { info[ProfileKeys.bundleIdentifier]?.stringValue }

    /// `LSApplicationQueriesSchemes`, empty when absent.
    public var queriesSchemes: [String] { info[ProfileKeys.queriesSchemes]?.stringArrayValue ?? [] }

    /// `keychain-access-groups` from the entitlements, empty when absent.
    public var keychainAccessGroups: [String] { entitlements?[ProfileKeys.keychainAccessGroups]?.stringArrayValue ?? [] }

    // MARK: Changing (keeps the types right)

    mutating func setInfo(_ key: String, _ value: PlistValue) { info[key] = value }

    mutating func setSetting(_ key: String, _ value: PlistValue) {
        var settings = intuneSettings
        settings[key] = value
        info[ProfileKeys.intuneMAMSettings] = .dictionary(settings)
    }

    mutating func setEntitlement(_ key: String, _ value: PlistValue) { entitlements?[key] = value }
}
