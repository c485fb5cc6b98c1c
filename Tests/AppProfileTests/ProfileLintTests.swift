import Testing
import ComplianceCore
@testable import AppProfile

@Suite struct ProfileLintTests {
    @Test func chatrIsClean() throws {
        let profile = try AppProfile.load(infoPlist: Fixtures.path("chatr-Info.plist"), entitlements: Fixtures.path("chatr.entitlements"))
        #expect(profile.lint() == [])
        #expect(profile.setting("ADALClientId") == "chatr")
        #expect(profile.setting("ADALRedirectUri") == "msauth.com.contoso.chatr://auth")
        #expect(profile.setting("ADALAuthority") == "https://login.microsoftonline.com/contoso.com")
        #expect(profile.flag("TreatAllWebViewsAsUnmanaged"))
        #expect(try profile.appBoundSettings() == AppBoundSettings(appBoundDomains: try AppBoundDomains(["chatr.contoso.com", "cdn.contoso.com"])))
    }

    @Test func brokenHasEveryProblem() throws {
        let profile = try AppProfile.load(infoPlist: Fixtures.path("broken-Info.plist"), entitlements: Fixtures.path("broken.entitlements"))
        let problems = profile.lint()
        let kinds = Set(problems.map(\.kind))
        // broken declares MSALClientCapabilities ["cp1"]: no protapp (an array, so not capabilitiesNotStrings);
        // its few query schemes are not over iOS's limit (a test of its own shows that one).
        #expect(kinds == Set(ProfileProblem.Kind.allCases).subtracting([.bundleIdentifierMissing, .capabilitiesNotStrings, .querySchemesOverLimit]))
        let lines = problems.map(\.description)
        #expect(lines.contains("error: IntuneMAMSettings.ADALClientId: missing — fix: set it to your app's Entra client id"))
        #expect(lines.contains { $0.hasPrefix("error: IntuneMAMSettings.ADALRedirectUri: neither ADALRedirectUri nor ADALRedirectScheme is set") })
        #expect(lines.contains("error: IntuneMAMSettings.AutoEnrollOnLaunch: MAMPolicyRequired is YES but AutoEnrollOnLaunch is not — fix: set AutoEnrollOnLaunch to YES"))
        #expect(problems.filter { $0.kind == .invalidColor }.map(\.keyPath)
            == ["IntuneMAMSettings.BackgroundColor", "IntuneMAMSettings.ForegroundColor", "IntuneMAMSettings.AccentColor"])
        #expect(lines.contains { $0.hasPrefix("error: WKAppBoundDomains: 11 domains listed, at most 10 allowed — fix:") })
        #expect(problems.filter { $0.kind == .querySchemeTwinMissing }.map(\.message)
            == ["\"mailto\" has no \"mailto-intunemam\" twin", "\"msauthv2\" has no \"msauthv2-intunemam\" twin"])
        let required = try #require(problems.first { $0.kind == .requiredQuerySchemesMissing })
        #expect(!required.message.contains("\"https-intunemam\""))
        #expect(required.message.contains("\"http-intunemam\"") && required.message.contains("\"scmx\""))
        #expect(problems.filter { $0.file == .entitlements }.map(\.message) == [
            "\"com.microsoft.intune.mam\" has no team id prefix",
            "missing \"com.microsoft.adalcache\"",
            "the app's bundle id group \"com.contoso.broken\" is not the first group",
        ])
        #expect(problems.filter { $0.severity == .warning }.map(\.keyPath)
            == ["IntuneMAMSettings.MAMPolicyRequired", "IntuneMAMSettings.SafariViewControllerBlockedOverride", "LSApplicationQueriesSchemes"])
    }

    @Test func eachRuleOnItsOwn() throws {
        let base = try AppProfile.load(infoPlist: Fixtures.path("chatr-Info.plist"), entitlements: Fixtures.path("chatr.entitlements"))
        func kinds(_ change: (inout [String: PlistValue], inout [String: PlistValue]) -> Void) throws -> [ProfileProblem.Kind] {
            var info = base.info
            var entitlements = base.entitlements ?? [:]
            change(&info, &entitlements)
            return try AppProfile(info: info, entitlements: entitlements).lint().map(\.kind)
        }
        func setting(_ key: String, _ value: PlistValue?) -> (inout [String: PlistValue], inout [String: PlistValue]) -> Void {
            { info, _ in
                var settings = info["IntuneMAMSettings"]?.dictionaryValue ?? [:]
                settings[key] = value
                info["IntuneMAMSettings"] = .dictionary(settings)
            }
        }
        // ADALRedirectScheme alone is enough.
        #expect(try kinds { info, e in setting("ADALRedirectUri", nil)(&info, &e); setting("ADALRedirectScheme", .string("msauth"))(&info, &e) } == [])
        #expect(try kinds(setting("ADALClientId", .string(""))) == [.clientIdMissing])
        // "The pound sign might be omitted."
        #expect(try kinds(setting("SecondaryBackgroundColor", .string("00FF7f"))) == [])
        #expect(try kinds(setting("SecondaryForegroundColor", .string("#00FF7"))) == [.invalidColor])
        for level in ProfileKeys.fileProtectionLevels {
            #expect(try kinds(setting("MaxFileProtectionLevel", .string(level))) == [])
        }
        #expect(try kinds(setting("MAMPolicyRequired", .bool(true))) == [.mamPolicyRequiredBlocksAppStore])
        #expect(try kinds { info, e in setting("MAMPolicyRequired", .bool(true))(&info, &e); setting("AutoEnrollOnLaunch", nil)(&info, &e) }
            == [.autoEnrollOnLaunchOff, .mamPolicyRequiredBlocksAppStore])
        #expect(try kinds { info, _ in info["NSFaceIDUsageDescription"] = nil } == [.faceIDUsageDescriptionMissing])
        #expect(try kinds { info, _ in info["CFBundleIdentifier"] = nil } == [.bundleIdentifierMissing])
        #expect(try kinds { info, _ in info["WKAppBoundDomains"] = .strings((1...10).map { "d\($0).example" }) } == [])
        // A custom MSAL cache group replaces com.microsoft.adalcache.
        #expect(try kinds(setting("ADALCacheKeychainGroupOverride", .string("com.contoso.cache"))) == [.keychainGroupMissing])
        // A literal team id prefix counts as a prefix.
        #expect(try kinds { _, e in
            e["keychain-access-groups"] = .strings(["ABCDE12345.com.contoso.chatr", "ABCDE12345.com.microsoft.intune.mam", "ABCDE12345.com.microsoft.adalcache"])
        } == [])
        // MSALClientCapabilities: protapp in any case (the guide's Swift sample says ProtApp); no
        // protapp is the 53009 error; not strings is an error too; absent is no capability at all
        // (the daemon declares none, so 53009 as well).
        for values in [["protapp"], ["ProtApp"], ["cp1", "PROTAPP"]] {
            #expect(try kinds { info, _ in info["MSALClientCapabilities"] = .strings(values) } == [])
        }
        #expect(try kinds { info, _ in info["MSALClientCapabilities"] = .strings([]) } == [.protectionCapabilityMissing])
        #expect(try kinds { info, _ in info["MSALClientCapabilities"] = .strings(["cp1", "prot-app"]) } == [.protectionCapabilityMissing])
        #expect(try kinds { info, _ in info["MSALClientCapabilities"] = .string("protapp") } == [.capabilitiesNotStrings])
        #expect(try kinds { info, _ in info["MSALClientCapabilities"] = nil } == [.protectionCapabilityMissing])
        let absent = try #require(try AppProfile(info: base.info.filter { $0.key != "MSALClientCapabilities" }).lint().first { $0.kind == .protectionCapabilityMissing })
        #expect(absent.message.hasPrefix("missing:") && absent.message.contains("AADSTS53009") && absent.severity == .error && absent.kind.isFixable)
        // CFBundleURLTypes: "at least one schemeURL ... along with its -intunemam counterpart".
        func urlTypes(_ lists: [[String]]) -> PlistValue {
            .array(lists.map { .dictionary(["CFBundleURLSchemes": .strings($0)]) })
        }
        #expect(try kinds { info, _ in info["CFBundleURLTypes"] = urlTypes([["msauth.com.contoso.chatr"]]) } == [.urlSchemeTwinMissing])
        #expect(try kinds { info, _ in info["CFBundleURLTypes"] = urlTypes([["msauth.com.contoso.chatr"], ["launch-chatr", "launch-chatr-intunemam"]]) } == [])
        #expect(try kinds { info, _ in info["CFBundleURLTypes"] = nil } == [])
        // Only twins is no pair either: the twin's base is what is missing.
        #expect(try kinds { info, _ in info["CFBundleURLTypes"] = urlTypes([["launch-chatr-intunemam"]]) } == [.urlSchemeTwinMissing])
        let baseless = try #require(try AppProfile(info: base.info.merging(["CFBundleURLTypes": urlTypes([["x-intunemam"]])]) { $1 }).lint().first)
        #expect(baseless.message.contains("\"x-intunemam\" lacks \"x\"") && baseless.fix == "add \"x\" to the CFBundleURLSchemes of \"x-intunemam\"")
        // CFBundleURLTypes of the wrong type is named where it is wrong.
        for (value, keyPath, found) in [
            (PlistValue.string("launch-chatr"), "CFBundleURLTypes", "found string"),
            (.strings(["launch-chatr"]), "CFBundleURLTypes", "found an array whose item 0 is a string"),
            (.array([.dictionary(["CFBundleURLSchemes": .string("launch-chatr")])]), "CFBundleURLTypes[0].CFBundleURLSchemes", "found string"),
        ] {
            #expect { try AppProfile(info: base.info.merging(["CFBundleURLTypes": value]) { $1 }) } throws: { error in
                guard let error = error as? AppProfileError else { return false }
                return error.code == .wrongValueType && error.keyPath == keyPath && error.message.hasSuffix(found)
            }
        }
        // WebViewHandledURLSchemes: the app's own schemes only; a web scheme or an empty entry is an error.
        // LSApplicationQueriesSchemes: a blank or malformed entry gets no twin; it is named and fix removes it.
        let queries = base.info["LSApplicationQueriesSchemes"]?.stringArrayValue ?? []
        #expect(try kinds { info, _ in info["LSApplicationQueriesSchemes"] = .strings(queries + ["", " ", "x:y"]) }
            == [.querySchemeInvalid, .querySchemeInvalid, .querySchemeInvalid])
        let oddQueries = try AppProfile(info: base.info.merging(["LSApplicationQueriesSchemes": .strings(queries + ["", "x:y"])]) { $1 })
        #expect(oddQueries.fixed().queriesSchemes == queries && oddQueries.fixed().lint().isEmpty == oddQueries.lint().filter { $0.kind != .querySchemeInvalid }.isEmpty)
        // A repeated scheme (any case) is a warning, and fix keeps its first place.
        #expect(try kinds { info, _ in info["LSApplicationQueriesSchemes"] = .strings(queries + [queries[0].uppercased(), queries[1]]) }
            == [.querySchemeDuplicate, .querySchemeDuplicate])
        let repeated = try AppProfile(info: base.info.merging(["LSApplicationQueriesSchemes": .strings(queries + [queries[0].uppercased()])]) { $1 })
        #expect(repeated.fixed().queriesSchemes == queries && !repeated.fixed().lint().map(\.kind).contains(.querySchemeDuplicate))
        // More than iOS's 50: a warning that fix cannot mend, counted as the list would be once fixed.
        let many = (1...(50 - queries.count)).map { "app\($0)" }
        let full = try AppProfile(info: base.info.merging(["LSApplicationQueriesSchemes": .strings(queries + many + many.map { $0 + "-intunemam" })]) { $1 })
        let over = full.lint().filter { $0.kind == .querySchemesOverLimit }
        #expect(over.count == 1 && over[0].severity == .warning && !over[0].kind.isFixable, "\(over)")
        #expect(over.first?.message.hasPrefix("holds \(queries.count + 2 * many.count) schemes; iOS lets an app query at most 50") == true, "\(over)")
        let atLimit = try AppProfile(info: base.info.merging(["LSApplicationQueriesSchemes": .strings(queries + many)]) { $1 })
        #expect(atLimit.lint().map(\.kind).contains(.querySchemesOverLimit), "twins still to add count")
        #expect(atLimit.lint().first { $0.kind == .querySchemesOverLimit }?.message.contains("once its twins and required schemes are added") == true)
        let exactly = try AppProfile(info: base.info.merging(["LSApplicationQueriesSchemes": .strings(queries + Array(many.prefix((50 - queries.count) / 2)) + many.prefix((50 - queries.count) / 2).map { $0 + "-intunemam" })]) { $1 })
        #expect(exactly.fixed().queriesSchemes.count <= 50 && !exactly.lint().map(\.kind).contains(.querySchemesOverLimit))
        #expect(try kinds(setting("WebViewHandledURLSchemes", .strings(["chatr-doc"]))) == [])
        #expect(try kinds(setting("WebViewHandledURLSchemes", .strings(["chatr-doc", "HTTPS", "", "http"]))) == [.webViewHandledSchemeInvalid, .webViewHandledSchemeInvalid, .webViewHandledSchemeInvalid])
        let twin = try #require(try AppProfile(info: base.info.merging(["CFBundleURLTypes": urlTypes([["a", "b"]])]) { $1 }).lint().first)
        #expect(twin.description == "error: CFBundleURLTypes: no URL scheme has its -intunemam counterpart: the Intune SDK's Open-in action extension needs at least one pair (\"a\" lacks \"a-intunemam\") — fix: add \"a-intunemam\" to the CFBundleURLSchemes of \"a\"")
        let missing = try #require(try AppProfile(info: base.info.merging(["MSALClientCapabilities": .strings(["cp1"])]) { $1 }).lint().first)
        #expect(missing.description.contains("AADSTS53009") && missing.severity == .error && missing.kind.isFixable)
        // Without mailto, Outlook's scheme is not needed.
        #expect(try kinds { info, _ in
            info["LSApplicationQueriesSchemes"] = .strings(ProfileKeys.requiredQuerySchemes)
        } == [])
    }

    @Test func profileFeedsTheWebContentDecisions() throws {
        let chatr = try AppProfile.load(infoPlist: Fixtures.path("chatr-Info.plist"), entitlements: Fixtures.path("chatr.entitlements"))
        var views = chatr.webViewHierarchy()
        try views.add("help", .wkWebView)
        #expect(try views.dataIdentity(of: "help", uiIdentity: .managed(account: "a@contoso.com")) == .unmanaged)
        #expect(try AuthBrowserSelection.decide(.default, on: .iOS(17), intune: chatr.intuneAuthContext(appInitiated: true)).findings
            == [.requiresSafariViewControllerBlockedOverride(.asWebAuthenticationSession)])
        let broken = try AppProfile.load(infoPlist: Fixtures.path("broken-Info.plist"))
        #expect(broken.intuneAuthContext(appInitiated: true).safariViewControllerBlockedOverride)
        #expect(!broken.webViewHierarchy().treatAllWebViewsAsUnmanaged)
        // "set TreatAllWebViewsAsUnmanaged to YES in the app's Info.plist": the top level counts too.
        let topLevel = try AppProfile.load(infoPlist: Fixtures.path("chatr-webviews-toplevel-Info.plist"))
        #expect(topLevel.webViewHierarchy().treatAllWebViewsAsUnmanaged && !topLevel.flag("TreatAllWebViewsAsUnmanaged"))
        #expect(topLevel.lint().isEmpty)
        #expect(throws: AppProfileError.self) { try AppProfile(info: ["TreatAllWebViewsAsUnmanaged": .string("YES")]) }
        let handled = try AppProfile.load(infoPlist: Fixtures.path("chatr-webviews-Info.plist")).webViewAppSettings()
        #expect(handled == WebViewAppSettings(treatAllWebViewsAsUnmanaged: false, handledURLSchemes: ["chatr-doc"]))
        #expect(throws: WebContentError.self) { try broken.appBoundSettings() }
        let browser = try AppProfile(info: [:], entitlements: ["com.apple.developer.web-browser": .bool(true)])
        #expect(try browser.appBoundSettings() == AppBoundSettings(appBoundDomains: nil, hasWebBrowserEntitlement: true))
    }

    @Test func withoutEntitlementsKeychainIsNotChecked() throws {
        let profile = try AppProfile.load(infoPlist: Fixtures.path("broken-Info.plist"))
        #expect(!profile.lint().contains { $0.file == .entitlements })
        #expect(!profile.lint().contains { $0.kind == .appGroupIdentifiersIncomplete })
    }

    @Test func reportLinesAndJSON() throws {
        let report = try ProfileCommands.lint(infoPlist: Fixtures.path("broken-Info.plist"), entitlements: Fixtures.path("broken.entitlements"))
        #expect(report.warningCount == 3)
        #expect(report.errorCount == report.problems.count - 3)
        #expect(report.humanLines.last == "\(report.errorCount) errors, 3 warnings")
        #expect(report.exitStatus == 1)
        let first = try #require(report.json["problems"]?[0])
        #expect(first["keyPath"]?.stringValue == "IntuneMAMSettings.ADALClientId")
        #expect(first["severity"]?.stringValue == "error")
        #expect(first["kind"]?.stringValue == "clientIdMissing")
        #expect(first["fixable"]?.boolValue == false)
        #expect(report.json["warnings"]?.intValue == 3)
        let clean = try ProfileCommands.lint(infoPlist: Fixtures.path("chatr-Info.plist"), entitlements: Fixtures.path("chatr.entitlements"))
        #expect(clean.humanLines == ["0 errors, 0 warnings"])
        #expect(clean.exitStatus == 0)
    }
}
