import AppProfile
import ComplianceCore
import Daemon
import Foundation
import Orchestrator
import Testing

/// The Info.plist settings as the SDK guide words them: `ADALRedirectScheme` means the
/// redirect `scheme://bundle_id`; an absent `ADALAuthority` means the common authority.
@Suite struct AppSettingsWordingTests {
    static let apps = DaemonHarness.appsDirectory

    /// chatr's profile with its redirect given as a scheme, and `edit` applied to the text.
    static func schemeOnlyProfile(_ edit: (String) -> String = { $0 }) throws -> String {
        var text = try String(contentsOfFile: apps + "/chatr-Info.plist", encoding: .utf8)
        text = text.replacingOccurrences(
            of: "<key>ADALRedirectUri</key>\n\t\t<string>msauth.com.contoso.chatr://auth</string>",
            with: "<key>ADALRedirectScheme</key>\n\t\t<string>msauth.com.contoso.chatr</string>")
        #expect(text.contains("ADALRedirectScheme"), "the fixture's redirect entry was not found")
        let path = NSTemporaryDirectory() + "scheme-" + UUID().uuidString + "-Info.plist"
        try edit(text).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aRedirectSchemeMeansSchemeColonSlashSlashBundleID() throws {
        let path = try Self.schemeOnlyProfile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try AppSettings.load(infoPlist: path).redirectURI == "msauth.com.contoso.chatr://com.contoso.chatr")
    }

    @Test func aRedirectSchemeWithoutBundleIDIsAnErrorNamingBoth() throws {
        let path = try Self.schemeOnlyProfile {
            $0.replacingOccurrences(of: "<key>CFBundleIdentifier</key>\n\t<string>com.contoso.chatr</string>", with: "")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try AppSettings.load(infoPlist: path)
        } throws: { error in
            let text = "\(error)"
            return text.contains("ADALRedirectScheme") && text.contains("CFBundleIdentifier") && text.contains(path)
        }
    }

    @Test func noAuthorityAnywhereMeansTheCommonAuthority() throws {
        var app = try AppSettings.load(infoPlist: Self.apps + "/chatr-Info.plist")
        app.authority = nil
        let configuration = try DaemonConfiguration(stateDirectory: NSTemporaryDirectory() + "unused", app: app)
        #expect(configuration.issuer == .entra("https://login.microsoftonline.com/common"))
        #expect(configuration.mamURL == "https://login.microsoftonline.com/mam/v1")
        // The profile's ADALAuthority, then --authority, come first.
        let profiled = try DaemonConfiguration(stateDirectory: NSTemporaryDirectory() + "unused", app: try AppSettings.load(infoPlist: Self.apps + "/chatr-Info.plist"))
        #expect(profiled.issuer == .entra("https://login.microsoftonline.com/contoso.com"))
        let given = try DaemonConfiguration(stateDirectory: NSTemporaryDirectory() + "unused", app: app, authority: "http://127.0.0.1:9/contoso.com")
        #expect(given.issuer == .entra("http://127.0.0.1:9/contoso.com"))
    }

    /// A missing `MSALClientCapabilities` declares nothing (the issuer answers 53009, which no
    /// enrollment remediates), and the web settings come from the profile.
    @Test func noCapabilitiesKeyDeclaresNoCapabilityAndWebSettingsAreRead() throws {
        #expect(try AppSettings.load(infoPlist: Self.apps + "/chatr-no-capabilities-Info.plist").capabilities == [])
        #expect(try AppSettings.load(infoPlist: Self.apps + "/chatr-Info.plist").capabilities == ["protapp"])
        let web = try AppSettings.load(infoPlist: Self.apps + "/chatr-webviews-Info.plist").webViews
        #expect(!web.treatAllWebViewsAsUnmanaged && web.handledURLSchemes == ["chatr-doc"])
        #expect(try AppSettings.load(infoPlist: Self.apps + "/chatr-webviews-toplevel-Info.plist").webViews.treatAllWebViewsAsUnmanaged)
    }
}
