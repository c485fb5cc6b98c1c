import JSON
import Testing
@testable import ComplianceCore

/// `clipboardRestriction` decides cut/copy/paste out of and into managed content; the web-view
/// guide's scenarios 1 and 2 through the data identity; `WebViewHandledURLSchemes`.
@Suite struct ClipboardDecisionTests {
    let alice = ClipboardEndpoint.app(.managed(account: "alice@contoso.com"))
    let unmanagedView = ClipboardEndpoint.app(.unmanaged)
    let managedApp = ClipboardEndpoint.otherApp(managed: true)
    let otherApp = ClipboardEndpoint.otherApp(managed: false)

    func allowed(_ from: ClipboardEndpoint, _ to: ClipboardEndpoint, _ restriction: ClipboardRestriction) -> Bool {
        ClipboardDecision.decide(from: from, to: to, restriction: restriction).allowed
    }

    @Test func copyOutOfManagedContentFollowsTheRestriction() {
        // to: unmanaged app, managed app, unmanaged content of the app
        let table: [(ClipboardRestriction, [Bool])] = [
            (.allApps, [true, true, true]), (.managedAppsWithPasteIn, [false, true, false]),
            (.managedApps, [false, true, false]), (.blocked, [false, false, false]),
        ]
        for (restriction, expected) in table {
            #expect([otherApp, managedApp, unmanagedView].map { allowed(alice, $0, restriction) } == expected, "\(restriction)")
        }
    }

    @Test func pasteIntoManagedContentFollowsTheRestriction() {
        // from: unmanaged app, managed app, unmanaged content of the app
        let table: [(ClipboardRestriction, [Bool])] = [
            (.allApps, [true, true, true]), (.managedAppsWithPasteIn, [true, true, true]),
            (.managedApps, [false, true, false]), (.blocked, [false, false, false]),
        ]
        for (restriction, expected) in table {
            #expect([otherApp, managedApp, unmanagedView].map { allowed($0, alice, restriction) } == expected, "\(restriction)")
        }
    }

    @Test func unmanagedToUnmanagedAndManagedToManagedAreNeverRestricted() {
        for restriction in ClipboardRestriction.allCases {
            let free = ClipboardDecision.decide(from: unmanagedView, to: otherApp, restriction: restriction)
            #expect(free.allowed && free.restriction == nil)
            let own = ClipboardDecision.decide(from: alice, to: alice, restriction: restriction)
            #expect(own.allowed && own.restriction == nil)
        }
    }

    @Test func thePolicyValueAndAnUnknownOne() {
        #expect(ClipboardRestriction(policyValue: nil) == .allApps)
        #expect(ClipboardRestriction(policyValue: "managedApps") == .managedApps)
        #expect(ClipboardRestriction(policyValue: "someNewLevel") == .blocked)
        let managed = try! AccountID("alice@contoso.com")
        let settings: JSONObject = ["clipboardRestriction": "managedAppsWithPasteIn", "openLinksInManagedBrowser": true]
        let policy = DataProtectionPolicy(identity: managed, managed: managed, settings: settings)
        #expect(policy.clipboardRestriction == .managedAppsWithPasteIn && policy.webLinkPolicy == .managedBrowser)
        let other = DataProtectionPolicy(identity: try! AccountID("bob@contoso.com"), managed: managed, settings: settings)
        #expect(other.clipboardRestriction == .allApps && other.webLinkPolicy == .anyApp)
    }

    /// Scenario 1 ("any cut/copy data from the web view will be treated as managed content") and
    /// scenario 2 ("can be copied and pasted to other unmanaged apps").
    @Test func scenariosOneAndTwoThroughTheDataIdentity() {
        let ui = UIPolicyIdentity.managed(account: "alice@contoso.com")
        let scenario1 = DataIdentity.decide(policy: .unset, treatAllWebViewsAsUnmanaged: false, uiIdentity: ui)
        #expect(!allowed(.app(scenario1), otherApp, .managedAppsWithPasteIn))
        #expect(allowed(otherApp, .app(scenario1), .managedAppsWithPasteIn))
        let scenario2 = DataIdentity.decide(policy: .unset, treatAllWebViewsAsUnmanaged: true, uiIdentity: ui)
        #expect(allowed(.app(scenario2), otherApp, .blocked))
        let unmanagedUser = DataIdentity.decide(policy: .currentIdentity, treatAllWebViewsAsUnmanaged: false, uiIdentity: .unmanaged(account: "me@example.com"))
        #expect(allowed(.app(unmanagedUser), otherApp, .blocked))
    }

    @Test func handledSchemesStayInTheView() throws {
        let rule = ExternalURLRule(internal: [.host("contoso.com")])
        let identity = DataIdentity.managed(account: "alice@contoso.com")
        func decide(_ text: String, _ handled: Set<String>) throws -> NavigationDecision {
            NavigationDecision.decide(
                url: try #require(WebURL(text)), frame: .top, rule: rule, dataIdentity: identity, linkPolicy: .managedBrowser, handledSchemes: handled)
        }
        #expect(try decide("chatr-doc://plan/1", []) == .blocked)
        #expect(try decide("chatr-doc://plan/1", ["chatr-doc"]) == .loadInView)
        #expect(try decide("CHATR-DOC://plan/1", ["chatr-doc"]) == .loadInView)
        #expect(try decide("ftp://x/y", ["chatr-doc"]) == .blocked)
        #expect(try decide("https://www.bing.com/", ["chatr-doc"]) == .openInManagedBrowser("microsoft-edge-https://www.bing.com/"))
        // The web schemes are not the app's to claim: listing them leaves the link policy in force.
        #expect(try decide("https://www.bing.com/", ["https", "http"]) == .openInManagedBrowser("microsoft-edge-https://www.bing.com/"))
        #expect(try decide("http://www.bing.com/", ["http"]) == .openInManagedBrowser("microsoft-edge-http://www.bing.com/"))
        #expect(WebViewAppSettings(handledURLSchemes: ["Chatr-Doc"]).handledURLSchemes == ["chatr-doc"])
    }
}
