import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// The web-view and clipboard decisions the running app is asked (`webViewDecision`,
/// `clipboardDecision`): the machine gives the rules their inputs, the effective UI identity and
/// the managed account's policy in force.
@Suite struct WebDecisionMachineTests {
    static let app = WebViewAppSettings(treatAllWebViewsAsUnmanaged: false, handledURLSchemes: ["chatr-doc"])

    /// alice managed under a policy with these settings, the app's identities unset (MultiIdentity).
    static func aliceManaged(_ settings: JSONObject) throws -> ComplianceMachine {
        var machine = try MultiIdentityTests.aliceManaged()
        for (key, value) in settings { machine.accounts[alice]?.policy?.document[key] = value }
        return machine
    }

    @Test func theUIIdentitySwitchDecidesTheDataIdentity() throws {
        var machine = try Self.aliceManaged(["openLinksInManagedBrowser": true, "clipboardRestriction": "managedAppsWithPasteIn"])
        let view = WebViewRequest(policy: .currentIdentity, rule: ExternalURLRule(internal: [.host("contoso.com")]), url: WebURL("https://www.bing.com/"))
        let before = machine.webViewDecision(view, app: Self.app)
        #expect(before.uiIdentity == .none && before.dataIdentity == .unmanaged && before.navigation == .loadInView)
        #expect(before.linkPolicy == .managedBrowser && before.clipboardRestriction == .managedAppsWithPasteIn, "the policy in force is alice's")
        #expect(machine.clipboardDecision(from: .app, to: .otherApp(managed: false), app: Self.app).allowed)

        #expect(MultiIdentityTests.switchUI(&machine, alice).0?.result == .success)
        let after = machine.webViewDecision(view, app: Self.app)
        #expect(after.uiIdentity == .managed(account: alice.key) && after.dataIdentity == .managed(account: alice.key))
        #expect(after.navigation == .openInManagedBrowser("microsoft-edge-https://www.bing.com/"))
        #expect(!machine.clipboardDecision(from: .app, to: .otherApp(managed: false), app: Self.app).allowed)
        #expect(machine.clipboardDecision(from: .otherApp(managed: false), to: .webView(.unset), app: Self.app).allowed, "paste in is allowed")

        #expect(MultiIdentityTests.switchUI(&machine, nil).0?.result == .success)
        #expect(machine.webViewDecision(view, app: Self.app).dataIdentity == .unmanaged)
    }

    @Test func aPolicyChangeFlipsTheLinkAndTheClipboard() throws {
        var machine = try Self.aliceManaged(["openLinksInManagedBrowser": true, "clipboardRestriction": "managedApps"])
        #expect(MultiIdentityTests.switchUI(&machine, alice).0?.result == .success)
        let view = WebViewRequest(policy: .unset, rule: ExternalURLRule(internal: []), url: WebURL("https://www.bing.com/"))
        #expect(machine.webViewDecision(view, app: Self.app).navigation == .openInManagedBrowser("microsoft-edge-https://www.bing.com/"))
        #expect(!machine.clipboardDecision(from: .otherApp(managed: false), to: .app, app: Self.app).allowed)
        machine.accounts[alice]?.policy?.document["openLinksInManagedBrowser"] = false
        machine.accounts[alice]?.policy?.document["clipboardRestriction"] = "allApps"
        #expect(machine.webViewDecision(view, app: Self.app).navigation == .loadInView)
        #expect(machine.clipboardDecision(from: .otherApp(managed: false), to: .app, app: Self.app).allowed)
        // A scheme the app's web views handle stays in the view.
        let handled = WebViewRequest(policy: .unset, rule: ExternalURLRule(internal: []), url: WebURL("chatr-doc://plan"))
        machine.accounts[alice]?.policy?.document["openLinksInManagedBrowser"] = true
        #expect(machine.webViewDecision(handled, app: Self.app).navigation == .loadInView)
        #expect(machine.webViewDecision(handled, app: WebViewAppSettings()).navigation == .blocked)
    }

    /// "treated as unmanaged with unrestricted policy settings": a UI identity that is not the
    /// managed account is unmanaged, and its content is not restricted.
    @Test func anotherAccountAsUIIdentityIsUnmanaged() throws {
        var machine = try Self.aliceManaged(["clipboardRestriction": "blocked"])
        let bob = try AccountID("bob@contoso.com")
        machine.identities.ui = .account(bob)
        #expect(machine.uiPolicyIdentity == .unmanaged(account: bob.key))
        #expect(machine.clipboardDecision(from: .app, to: .otherApp(managed: false), app: Self.app).allowed)
        #expect(machine.clipboardDecision(from: .webView(.currentIdentity), to: .app, app: Self.app).restriction == nil)
    }
}
