/// The keychain-sharing rules: the app's bundle id group first, then the Intune SDK's group
/// and MSAL's cache group, each behind the team id prefix.
struct KeychainRules {
    let groups: [String]
    let bundleIdentifier: String?
    /// `com.microsoft.adalcache`, or `ADALCacheKeychainGroupOverride`.
    let cacheGroup: String

    /// The groups every profile needs, bundle id first (when known).
    var requiredNames: [String] {
        [bundleIdentifier, ProfileKeys.intuneKeychainGroup, cacheGroup].compactMap { $0 }
    }

    /// The group name without its prefix (`$(AppIdentifierPrefix)` or a ten-character team id),
    /// and whether it had one.
    static func split(_ group: String) -> (name: String, prefixed: Bool) {
        if group.hasPrefix(ProfileKeys.appIdentifierPrefix) {
            return (String(group.dropFirst(ProfileKeys.appIdentifierPrefix.count)), true)
        }
        let parts = group.split(separator: ".", maxSplits: 1)
        if parts.count == 2, parts[0].count == 10,
            parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
        {
            return (String(parts[1]), true)
        }
        return (group, false)
    }

    /// Required groups written without a prefix.
    var unprefixed: [String] {
        groups.filter { group in
            let (name, prefixed) = Self.split(group)
            return !prefixed && requiredNames.contains(name)
        }
    }

    /// Required groups absent, prefixed or not.
    var missing: [String] {
        let names = Set(groups.map { Self.split($0).name })
        return requiredNames.filter { !names.contains($0) }
    }

    /// Whether the bundle id group is present but not first.
    var bundleGroupNotFirst: Bool {
        guard let bundleIdentifier, let first = groups.first else { return false }
        return Self.split(first).name != bundleIdentifier && groups.contains { Self.split($0).name == bundleIdentifier }
    }

    /// The groups fixed: prefixes added, duplicates dropped, the bundle id group moved or added
    /// first, the missing groups appended.
    var fixed: [String] {
        var result: [String] = []
        for group in groups {
            let (name, prefixed) = Self.split(group)
            let written = prefixed || !requiredNames.contains(name) ? group : ProfileKeys.appIdentifierPrefix + name
            if !result.contains(written) { result.append(written) }
        }
        if let bundleIdentifier {
            let index = result.firstIndex { Self.split($0).name == bundleIdentifier }
            let bundleGroup = index.map { result.remove(at: $0) } ?? ProfileKeys.appIdentifierPrefix + bundleIdentifier
            result.insert(bundleGroup, at: 0)
        }
        let names = Set(result.map { Self.split($0).name })
        result += requiredNames.filter { !names.contains($0) }.map { ProfileKeys.appIdentifierPrefix + $0 }
        return result
    }
}
