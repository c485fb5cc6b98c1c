extension AppProfile {
    /// The keychain groups rules as this profile needs them.
    var keychainRules: KeychainRules {
        KeychainRules(
            groups: keychainAccessGroups,
            bundleIdentifier: bundleIdentifier,
            cacheGroup: setting("ADALCacheKeychainGroupOverride") ?? ProfileKeys.msalCacheKeychainGroup)
    }

    /// The app groups of the entitlements missing from `IntuneMAMSettings.AppGroupIdentifiers`.
    var missingAppGroupIdentifiers: [String] {
        let declared = entitlements?[ProfileKeys.applicationGroups]?.stringArrayValue ?? []
        let listed = Set(intuneSettings["AppGroupIdentifiers"]?.stringArrayValue ?? [])
        var seen = Set<String>()
        return declared.filter { !listed.contains($0) && seen.insert($0).inserted }
    }

    func entitlementProblems() -> [ProfileProblem] {
        guard entitlements != nil else { return [] }
        let key = ProfileKeys.keychainAccessGroups
        let rules = keychainRules
        var problems: [ProfileProblem] = []
        if bundleIdentifier == nil {
            problems.append(.init(.bundleIdentifierMissing, .error, .infoPlist, ProfileKeys.bundleIdentifier,
                "missing: the first keychain access group must be the app's bundle id",
                fix: "set it to the app's bundle id"))
        }
        for group in rules.unprefixed {
            problems.append(.init(.keychainGroupWithoutPrefix, .error, .entitlements, key,
                "\"\(group)\" has no team id prefix", fix: "write it as \"\(ProfileKeys.appIdentifierPrefix)\(group)\""))
        }
        for name in rules.missing {
            let first = name == bundleIdentifier ? " as the first group" : ""
            problems.append(.init(.keychainGroupMissing, .error, .entitlements, key,
                "missing \"\(name)\"", fix: "add \"\(ProfileKeys.appIdentifierPrefix)\(name)\"\(first)"))
        }
        if rules.bundleGroupNotFirst, let bundleIdentifier {
            problems.append(.init(.keychainGroupNotFirst, .error, .entitlements, key,
                "the app's bundle id group \"\(bundleIdentifier)\" is not the first group", fix: "move it to the top of the list"))
        }
        let appGroups = missingAppGroupIdentifiers
        if !appGroups.isEmpty {
            let list = appGroups.map { "\"\($0)\"" }.joined(separator: ", ")
            problems.append(.init(.appGroupIdentifiersIncomplete, .error, .infoPlist,
                ProfileKeys.intuneMAMSettings + ".AppGroupIdentifiers",
                "the entitlements' application groups \(list) are not listed", fix: "add \(list)"))
        }
        return problems
    }
}
