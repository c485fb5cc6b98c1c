import PropertyBased
import Testing
@testable import AppProfile

/// `fixed()` is idempotent and leaves nothing fixable, over randomly generated profiles.
@Suite struct ProfileFixPropertyTests {
    static let absent = "<absent>"

    /// One of `pool`, `absent` standing for a missing key.
    static func pick(_ pool: [String]) -> Generator<String, Shrink.None<String?>> {
        Gen<String?>.element(of: pool).map { $0 ?? absent }
    }

    static let schemePool = [
        "mailto", "msauthv2", "msauthv2-intunemam", "Foo", "foo-INTUNEMAM", "http-intunemam", "https-intunemam",
        "smart-ns", "scmx", "ms-outlook-intunemam", "tel", "", "mailto-intunemam",
    ]
    static let groupPool = [
        "com.microsoft.intune.mam", "$(AppIdentifierPrefix)com.microsoft.intune.mam", "ABCDE12345.com.microsoft.adalcache",
        "com.contoso.app", "$(AppIdentifierPrefix)com.contoso.app", "other.group", "$(AppIdentifierPrefix)custom.cache",
        "com.microsoft.adalcache",
    ]

    /// Info.plist and entitlements dictionaries mixing correct, incomplete and odd entries.
    static func profiles() -> Generator<([String: PlistValue], [String: PlistValue]?), some SendableSequenceType> {
        zip(
            pick(["com.contoso.app", "com.example.other", absent]),
            Gen<String?>.element(of: schemePool).map { $0 ?? "" }.array(of: 0...8),
            Gen<String?>.element(of: groupPool).map { $0 ?? "" }.array(of: 0...6),
            Gen.int(in: 0...8),
            pick(["", "Face ID unlocks the app.", absent]),
            Gen<String?>.element(of: ["group.a", "group.b", "group.c"]).map { $0 ?? "" }.array(of: 0...3),
            Gen<String?>.element(of: ["group.a", "group.b"]).map { $0 ?? "" }.array(of: 0...2),
            pick(["custom.cache", absent]),
            Gen.bool,
            pick(["#0078D4", "blue", absent])
        ).map { bundle, schemes, groups, flags, faceID, appGroups, listedGroups, cacheOverride, hasEntitlements, color in
            var info: [String: PlistValue] = [:]
            var settings: [String: PlistValue] = [:]
            if bundle != absent { info["CFBundleIdentifier"] = .string(bundle) }
            if !schemes.isEmpty || flags % 2 == 0 { info["LSApplicationQueriesSchemes"] = .strings(schemes) }
            if faceID != absent { info["NSFaceIDUsageDescription"] = .string(faceID) }
            // flags: 0...8 = (MAMPolicyRequired, AutoEnrollOnLaunch) each absent, NO or YES.
            for (key, value) in [("MAMPolicyRequired", flags % 3), ("AutoEnrollOnLaunch", flags / 3)] where value > 0 {
                settings[key] = .bool(value == 2)
            }
            if !listedGroups.isEmpty { settings["AppGroupIdentifiers"] = .strings(listedGroups) }
            if cacheOverride != absent { settings["ADALCacheKeychainGroupOverride"] = .string(cacheOverride) }
            if color != absent { settings["AccentColor"] = .string(color) }
            if !settings.isEmpty || flags == 4 { info["IntuneMAMSettings"] = .dictionary(settings) }
            var entitlements: [String: PlistValue]?
            if hasEntitlements {
                entitlements = ["keychain-access-groups": .strings(groups)]
                if !appGroups.isEmpty { entitlements?["com.apple.security.application-groups"] = .strings(appGroups) }
            }
            return (info, entitlements)
        }
    }

    @Test func fixIsIdempotent() async {
        await propertyCheck(count: 300, input: Self.profiles()) { info, entitlements in
            guard let profile = try? AppProfile(info: info, entitlements: entitlements) else {
                Issue.record("generated profile does not type-check: \(info)")
                return
            }
            let once = profile.fixed()
            #expect(once.fixed() == once, "\(info) \(String(describing: entitlements))")
            #expect(once.fixableProblems() == [], "\(info) \(String(describing: entitlements))")
            // Fixing only adds, but for entries that are no URL scheme (blank, malformed), which it
            // removes: every valid scheme and keychain group of the input is still there, in some form.
            #expect(Set(profile.queriesSchemes.filter(AppProfile.isURLScheme)).isSubset(of: Set(once.queriesSchemes)))
            #expect(once.queriesSchemes.allSatisfy(AppProfile.isURLScheme))
            let names = { (groups: [String]) in Set(groups.map { KeychainRules.split($0).name }) }
            #expect(names(profile.keychainAccessGroups).isSubset(of: names(once.keychainAccessGroups)))
        }
    }

    @Test func fixedProfilesSurviveAWriteAndRead() async throws {
        let folder = try Fixtures.scratchFolder()
        await propertyCheck(count: 40, input: Self.profiles()) { info, entitlements in
            let profile = try AppProfile(info: info, entitlements: entitlements).fixed()
            let path = folder.appendingPathComponent("Info.plist").path
            try PlistFile.write(profile.info, to: path)
            #expect(try PlistFile.read(path) == profile.info)
        }
    }
}
