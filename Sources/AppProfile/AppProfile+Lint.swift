import ComplianceCore

extension AppProfile {
    /// Every problem in the profile, in a stable order: Intune settings, Info.plist keys,
    /// entitlements. Keychain groups are checked only when the profile has entitlements.
    public func lint() -> [ProfileProblem] {
        settingsProblems() + infoProblems() + entitlementProblems()
    }

    /// Whether `lint()` finds an error (warnings alone do not count).
    public var hasErrors: Bool { lint().contains { $0.severity == .error } }

    private func settingsProblems() -> [ProfileProblem] {
        let path = ProfileKeys.intuneMAMSettings + "."
        var problems: [ProfileProblem] = []
        if setting("ADALClientId") == nil {
            problems.append(.init(.clientIdMissing, .error, .infoPlist, path + "ADALClientId", "missing",
                fix: "set it to your app's Entra client id"))
        }
        if setting("ADALRedirectUri") == nil, setting("ADALRedirectScheme") == nil {
            problems.append(.init(.redirectMissing, .error, .infoPlist, path + "ADALRedirectUri",
                "neither ADALRedirectUri nor ADALRedirectScheme is set",
                fix: "set ADALRedirectUri to your app's redirect URI (msauth.<bundle id>://auth), or ADALRedirectScheme when the redirect is <scheme>://<bundle id>"))
        }
        if flag("MAMPolicyRequired"), !flag("AutoEnrollOnLaunch") {
            problems.append(.init(.autoEnrollOnLaunchOff, .error, .infoPlist, path + "AutoEnrollOnLaunch",
                "MAMPolicyRequired is YES but AutoEnrollOnLaunch is not", fix: "set AutoEnrollOnLaunch to YES"))
        }
        if flag("MAMPolicyRequired") {
            problems.append(.init(.mamPolicyRequiredBlocksAppStore, .warning, .infoPlist, path + "MAMPolicyRequired",
                "apps can't be submitted to the App Store with MAMPolicyRequired set to YES",
                fix: "set it only in builds distributed outside the App Store (line-of-business builds)"))
        }
        for key in ProfileKeys.colorSettings {
            guard let color = intuneSettings[key]?.stringValue, !Self.isColor(color) else { continue }
            problems.append(.init(.invalidColor, .error, .infoPlist, path + key, "\"\(color)\" is not a hexadecimal RGB colour",
                fix: "write it as #RRGGBB with hexadecimal digits, for example #0078D4"))
        }
        if let level = intuneSettings["MaxFileProtectionLevel"]?.stringValue, !ProfileKeys.fileProtectionLevels.contains(level) {
            problems.append(.init(.invalidFileProtectionLevel, .error, .infoPlist, path + "MaxFileProtectionLevel",
                "\"\(level)\" is not a file protection level",
                fix: "use one of \(ProfileKeys.fileProtectionLevels.joined(separator: ", "))"))
        }
        for scheme in invalidHandledURLSchemes {
            let why = scheme.allSatisfy(\.isWhitespace)
                ? "lists a blank entry"
                : !Self.isURLScheme(scheme)
                ? "lists \"\(scheme)\", which is not a URL scheme (a letter, then letters, digits, +, - or .; no \":\" or \"//\")"
                : "lists the web scheme \"\(scheme)\": web pages are the link policy's to place (the view or the managed browser), not a scheme the app's web view handles; the entry is ignored"
            problems.append(.init(.webViewHandledSchemeInvalid, .error, .infoPlist, path + ProfileKeys.webViewHandledURLSchemes, why,
                fix: "remove \"\(scheme)\"; list only the app's own schemes"))
        }
        if flag("SafariViewControllerBlockedOverride") {
            problems.append(.init(.safariViewControllerBlockedOverride, .warning, .infoPlist,
                path + "SafariViewControllerBlockedOverride",
                "turns off Intune's SafariViewController hooks: corporate data shown in SFSafariViewController, SFAuthenticationSession or ASWebAuthenticationSession can leak",
                fix: "use WKWebView for app-initiated MSAL sign-in and remove the override, unless a system browser is unavoidable"))
        }
        return problems
    }

    private func infoProblems() -> [ProfileProblem] {
        var problems: [ProfileProblem] = []
        if case .failure(let error) = Result(catching: { () throws(WebContentError) in try appBoundSettings() }) {
            problems.append(.init(.tooManyAppBoundDomains, .error, .infoPlist, ProfileKeys.appBoundDomains, error.context,
                fix: "keep at most \(AppBoundDomains.maximumCount) domains; local files, data URLs and HTML strings need no entry"))
        }
        let schemes = QuerySchemeRules(queriesSchemes)
        for entry in schemes.invalid {
            let what = entry.allSatisfy(\.isWhitespace) ? "a blank entry" : "\"\(entry)\", which is not a URL scheme (a letter, then letters, digits, +, - or .)"
            problems.append(.init(.querySchemeInvalid, .error, .infoPlist, ProfileKeys.queriesSchemes,
                "lists \(what): canOpenURL cannot query it", fix: "remove it"))
        }
        for entry in schemes.duplicates {
            problems.append(.init(.querySchemeDuplicate, .warning, .infoPlist, ProfileKeys.queriesSchemes,
                "lists \"\(entry)\" more than once (URL schemes are compared without case): the repeat takes one of the list's \(QuerySchemeRules.maximumCount) places",
                fix: "remove the repeat"))
        }
        let count = schemes.fixed.count
        if count > QuerySchemeRules.maximumCount {
            let after = count == schemes.schemes.count ? "" : " once its twins and required schemes are added and repeats removed"
            problems.append(.init(.querySchemesOverLimit, .warning, .infoPlist, ProfileKeys.queriesSchemes,
                "holds \(count) schemes\(after); iOS lets an app query at most \(QuerySchemeRules.maximumCount) (canOpenURL answers NO beyond them)",
                fix: "remove the \"-intunemam\" twins of apps known to use the Intune SDK and ask IntuneMAMPolicy isURLAllowed:isKnownManagedAppScheme:YES for their URLs instead (the Intune guide's way when the list runs out of space)"))
        }
        for (scheme, twin) in schemes.missingTwins {
            problems.append(.init(.querySchemeTwinMissing, .error, .infoPlist, ProfileKeys.queriesSchemes,
                "\"\(scheme)\" has no \"\(twin)\" twin", fix: "add \"\(twin)\""))
        }
        if !schemes.missingRequired.isEmpty {
            let list = schemes.missingRequired.map { "\"\($0)\"" }.joined(separator: ", ")
            problems.append(.init(.requiredQuerySchemesMissing, .error, .infoPlist, ProfileKeys.queriesSchemes,
                "missing the schemes the Intune SDK queries: \(list)", fix: "add \(list)"))
        }
        if schemes.outlookMissing {
            problems.append(.init(.outlookQuerySchemeMissing, .error, .infoPlist, ProfileKeys.queriesSchemes,
                "the app uses mailto: but \"\(ProfileKeys.outlookQueryScheme)\" is missing",
                fix: "add \"\(ProfileKeys.outlookQueryScheme)\""))
        }
        if let declared = info[ProfileKeys.clientCapabilities] {
            if let values = declared.stringArrayValue {
                if !ComplianceCore.declaresProtection(values) {
                    problems.append(.init(.protectionCapabilityMissing, .error, .infoPlist, ProfileKeys.clientCapabilities,
                        "does not declare \"protapp\": every user that app protection conditional access targets gets AADSTS53009 (the client app is not approved), which no enrollment can remediate, instead of the remediable AADSTS53005",
                        fix: "add \"protapp\" (MSAL's clientApplicationCapabilities; any case is accepted)"))
                }
            } else {
                problems.append(.init(.capabilitiesNotStrings, .error, .infoPlist, ProfileKeys.clientCapabilities,
                    "must be an array of strings", fix: "write it as an array of strings, for example [\"protapp\"]"))
            }
        }
        if info[ProfileKeys.clientCapabilities] == nil {
            problems.append(.init(.protectionCapabilityMissing, .error, .infoPlist, ProfileKeys.clientCapabilities,
                "missing: the app declares no client capabilities, so every user that app protection conditional access targets gets AADSTS53009 (the client app is not approved), which no enrollment can remediate, instead of the remediable AADSTS53005",
                fix: "add MSALClientCapabilities with \"protapp\" (MSAL's clientApplicationCapabilities)"))
        }
        if let pair = urlSchemePairMissing {
            problems.append(.init(.urlSchemeTwinMissing, .error, .infoPlist, ProfileKeys.urlTypes,
                "no URL scheme has its -intunemam counterpart: the Intune SDK's Open-in action extension needs at least one pair (\"\(pair.present)\" lacks \"\(pair.missing)\")",
                fix: "add \"\(pair.missing)\" to the CFBundleURLSchemes of \"\(pair.present)\""))
        }
        if (info[ProfileKeys.faceIDUsageDescription]?.stringValue ?? "").isEmpty {
            problems.append(.init(.faceIDUsageDescriptionMissing, .error, .infoPlist, ProfileKeys.faceIDUsageDescription,
                "missing: app protection policy can require Face ID to open the app",
                fix: "set a purpose string, for example \"\(ProfileKeys.defaultFaceIDUsageDescription)\""))
        }
        return problems
    }

    /// `#RRGGBB` or `RRGGBB` (the guide: "The pound sign might be omitted"), hexadecimal digits.
    static func isColor(_ text: String) -> Bool {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        return digits.count == 6 && digits.allSatisfy(\.isHexDigit)
    }
}
