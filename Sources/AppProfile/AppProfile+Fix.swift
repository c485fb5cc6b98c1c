import ComplianceCore

extension AppProfile {
    /// The profile with every mechanical fix applied, the way IntuneMAMConfigurator does it:
    /// `-intunemam` twins and the required query schemes appended, `AutoEnrollOnLaunch` set
    /// when `MAMPolicyRequired` is, a default `NSFaceIDUsageDescription`, the entitlements'
    /// app groups copied to `AppGroupIdentifiers`, and (with entitlements and a bundle id) the
    /// keychain groups prefixed, ordered and completed.
    ///
    /// Nothing is removed and nothing a person must decide (client id, redirect URI, colours,
    /// protection level, app-bound domains) is touched. Idempotent: `fixed().fixed() == fixed()`,
    /// and `fixed().lint()` has no fixable problem left.
    public func fixed() -> AppProfile {
        var profile = self
        if flag("MAMPolicyRequired"), !flag("AutoEnrollOnLaunch") {
            profile.setSetting("AutoEnrollOnLaunch", .bool(true))
        }
        let schemes = QuerySchemeRules(queriesSchemes)
        let fixedSchemes = schemes.fixed
        if fixedSchemes != queriesSchemes {
            profile.setInfo(ProfileKeys.queriesSchemes, .strings(fixedSchemes))
        }
        if let values = info[ProfileKeys.clientCapabilities]?.stringArrayValue, !ComplianceCore.declaresProtection(values) {
            profile.setInfo(ProfileKeys.clientCapabilities, .strings(values + [ComplianceCore.protectionCapability]))
        } else if info[ProfileKeys.clientCapabilities] == nil {
            profile.setInfo(ProfileKeys.clientCapabilities, .strings([ComplianceCore.protectionCapability]))
        }
        let invalidHandled = invalidHandledURLSchemes
        if !invalidHandled.isEmpty, let handled = intuneSettings[ProfileKeys.webViewHandledURLSchemes]?.stringArrayValue {
            profile.setSetting(ProfileKeys.webViewHandledURLSchemes, .strings(handled.filter { !invalidHandled.contains($0) }))
        }
        if let pair = urlSchemePairMissing {
            profile.addURLScheme(pair.missing, beside: pair.present)
        }
        if (info[ProfileKeys.faceIDUsageDescription]?.stringValue ?? "").isEmpty {
            profile.setInfo(ProfileKeys.faceIDUsageDescription, .string(ProfileKeys.defaultFaceIDUsageDescription))
        }
        guard entitlements != nil else { return profile }
        let appGroups = missingAppGroupIdentifiers
        if !appGroups.isEmpty {
            let listed = intuneSettings["AppGroupIdentifiers"]?.stringArrayValue ?? []
            profile.setSetting("AppGroupIdentifiers", .strings(listed + appGroups))
        }
        let groups = keychainRules.fixed
        if groups != keychainAccessGroups {
            profile.setEntitlement(ProfileKeys.keychainAccessGroups, .strings(groups))
        }
        return profile
    }

    /// Appends `missing` (a scheme's `-intunemam` twin or a twin's base) to the first
    /// `CFBundleURLSchemes` that lists `scheme`.
    private mutating func addURLScheme(_ missing: String, beside scheme: String) {
        guard var types = info[ProfileKeys.urlTypes]?.arrayValue else { return }
        for (index, type) in types.enumerated() {
            guard var dictionary = type.dictionaryValue, var schemes = dictionary[ProfileKeys.urlSchemes]?.stringArrayValue,
                schemes.contains(scheme)
            else { continue }
            schemes.append(missing)
            dictionary[ProfileKeys.urlSchemes] = .strings(schemes)
            types[index] = .dictionary(dictionary)
            setInfo(ProfileKeys.urlTypes, .array(types))
            return
        }
    }

    /// The problems `fixed()` repairs: the fixable ones `lint()` reports.
    public func fixableProblems() -> [ProfileProblem] {
        lint().filter(\.kind.isFixable)
    }
}
