import Foundation
import Testing
@testable import AppProfile

@Suite struct ProfileFixTests {
    @Test func fixRepairsEverythingMechanicalAndNothingElse() throws {
        let broken = try AppProfile.load(infoPlist: Fixtures.path("broken-Info.plist"), entitlements: Fixtures.path("broken.entitlements"))
        let fixed = broken.fixed()
        #expect(Set(fixed.lint().map(\.kind)) == [
            .clientIdMissing, .redirectMissing, .invalidColor, .invalidFileProtectionLevel, .tooManyAppBoundDomains,
            .mamPolicyRequiredBlocksAppStore, .safariViewControllerBlockedOverride,
        ])
        #expect(fixed.queriesSchemes == ["mailto", "msauthv2", "https-intunemam", "mailto-intunemam", "msauthv2-intunemam"]
            + ProfileKeys.requiredQuerySchemes.filter { $0 != "https-intunemam" } + ["ms-outlook-intunemam"])
        #expect(fixed.keychainAccessGroups == [
            "$(AppIdentifierPrefix)com.contoso.broken", "$(AppIdentifierPrefix)com.microsoft.intune.mam",
            "$(AppIdentifierPrefix)com.microsoft.adalcache",
        ])
        #expect(fixed.flag("AutoEnrollOnLaunch"))
        #expect(fixed.info["NSFaceIDUsageDescription"] == .string(ProfileKeys.defaultFaceIDUsageDescription))
        #expect(fixed.intuneSettings["AppGroupIdentifiers"] == .strings(["group.com.contoso.broken"]))
        // Untouched: what a person must decide.
        #expect(fixed.intuneSettings["AccentColor"] == broken.intuneSettings["AccentColor"])
        #expect(fixed.info["WKAppBoundDomains"] == broken.info["WKAppBoundDomains"])
        #expect(fixed.setting("ADALAuthority") == "https://login.microsoftonline.com/contoso.com")
        #expect(fixed.fixed() == fixed)
        #expect(broken.fixableProblems().count == broken.lint().count - fixed.lint().count)
    }

    @Test func cleanProfileIsUnchanged() throws {
        let chatr = try AppProfile.load(infoPlist: Fixtures.path("chatr-Info.plist"), entitlements: Fixtures.path("chatr.entitlements"))
        #expect(chatr.fixed() == chatr)
    }

    @Test func emptyInfoPlistGetsSchemesAndFaceIDButNoKeychainWithoutEntitlements() throws {
        let fixed = try AppProfile(info: [:]).fixed()
        #expect(fixed.queriesSchemes == ProfileKeys.requiredQuerySchemes)
        #expect(fixed.entitlements == nil)
        #expect(fixed.lint().map(\.kind) == [.clientIdMissing, .redirectMissing])
        // With entitlements but no bundle id, the two SDK groups are still added.
        let withEntitlements = try AppProfile(info: [:], entitlements: [:]).fixed()
        #expect(withEntitlements.keychainAccessGroups == [
            "$(AppIdentifierPrefix)com.microsoft.intune.mam", "$(AppIdentifierPrefix)com.microsoft.adalcache",
        ])
    }
}

@Suite struct ProfileFixCapabilityTests {
    @Test func fixAddsProtappAndKeepsTheDeclaredValues() throws {
        let base = try AppProfile.load(infoPlist: Fixtures.path("chatr-Info.plist"))
        let missing = try AppProfile(info: base.info.merging(["MSALClientCapabilities": .strings(["cp1"])]) { $1 })
        let fixed = missing.fixed()
        #expect(fixed.info["MSALClientCapabilities"] == .strings(["cp1", "protapp"]))
        #expect(!fixed.lint().contains { $0.kind == .protectionCapabilityMissing })
        #expect(fixed.fixed() == fixed)
        // Any case already declares it: nothing to add.
        let none = try AppProfile(info: base.info.filter { $0.key != "MSALClientCapabilities" })
        #expect(none.fixed().info["MSALClientCapabilities"] == .strings(["protapp"]))
        let urlTypes = PlistValue.array([.dictionary(["CFBundleURLSchemes": .strings(["launch-chatr"])]), .dictionary(["CFBundleURLSchemes": .strings(["x"])])])
        let twinless = try AppProfile(info: base.info.merging(["CFBundleURLTypes": urlTypes]) { $1 })
        let twinned = twinless.fixed()
        #expect(twinned.urlSchemes == ["launch-chatr", "launch-chatr-intunemam", "x"])
        #expect(twinned.fixed() == twinned && !twinned.lint().contains { $0.kind == .urlSchemeTwinMissing })
        let onlyTwin = try AppProfile(info: base.info.merging(["CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .strings(["Launch-Chatr-INTUNEMAM"])])])]) { $1 })
        #expect(onlyTwin.fixed().urlSchemes == ["Launch-Chatr-INTUNEMAM", "Launch-Chatr"])
        var handledSettings = base.intuneSettings
        handledSettings["WebViewHandledURLSchemes"] = .strings(["chatr-doc", "https", " ", "HTTP"])
        let handled = try AppProfile(info: base.info.merging(["IntuneMAMSettings": .dictionary(handledSettings)]) { $1 }).fixed()
        #expect(handled.intuneSettings["WebViewHandledURLSchemes"] == .strings(["chatr-doc"]))
        #expect(!handled.lint().contains { $0.kind == .webViewHandledSchemeInvalid })
        // A scheme that is a twin and a base at once: its pair is there, fix adds nothing.
        let doubled = try AppProfile(info: base.info.merging(["CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .strings(["chatr-intunemam-intunemam"])])])]) { $1 })
        #expect(doubled.fixed().urlSchemes == ["chatr-intunemam-intunemam", "chatr-intunemam"])
        #expect(doubled.fixed().fixed() == doubled.fixed() && !doubled.fixed().lint().contains { $0.kind == .urlSchemeTwinMissing })
        // A blank or malformed URL scheme gets no twin.
        let blank = try AppProfile(info: base.info.merging(["CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .strings(["  ", "a b"])])])]) { $1 })
        #expect(blank.fixed().urlSchemes == ["  ", "a b"])
        // Handled schemes: blank, malformed and web entries go, named for what they are.
        var odd = base.intuneSettings
        odd["WebViewHandledURLSchemes"] = .strings(["chatr-doc", "  ", " http", "https:", "microsoft-edge-https"])
        let oddProfile = try AppProfile(info: base.info.merging(["IntuneMAMSettings": .dictionary(odd)]) { $1 })
        let messages = oddProfile.lint().filter { $0.kind == .webViewHandledSchemeInvalid }.map(\.message)
        #expect(messages.count == 4 && messages[0] == "lists a blank entry" && messages[1].contains("which is not a URL scheme") && messages[3].contains("web scheme"), "\(messages)")
        #expect(oddProfile.fixed().intuneSettings["WebViewHandledURLSchemes"] == .strings(["chatr-doc"]))
        let swiftSample = try AppProfile(info: base.info.merging(["MSALClientCapabilities": .strings(["ProtApp"])]) { $1 })
        #expect(swiftSample.fixed().info["MSALClientCapabilities"] == .strings(["ProtApp"]))
    }
}
