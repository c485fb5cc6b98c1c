import Testing
@testable import ComplianceCore

/// The web-view guide's scenarios 1–4 (Intune App SDK for iOS, web-view features).
@Suite struct WebViewIdentityTests {
    let managed = UIPolicyIdentity.managed(account: "user@contoso.com")
    let unmanagedUser = UIPolicyIdentity.unmanaged(account: "someone@example.com")

    @Test func scenario1NoAPIsWebViewsFollowTheCurrentUIIdentity() throws {
        var app = WebViewHierarchy()
        try app.add("documents", .wkWebView)
        // "If a managed user opens a web view ..., any cut/copy data ... will be treated as managed content."
        #expect(try app.dataIdentity(of: "documents", uiIdentity: managed) == .managed(account: "user@contoso.com"))
        // "If an unmanaged user opens a web view ..., any cut/copy data ... will be treated as unmanaged content."
        #expect(try app.dataIdentity(of: "documents", uiIdentity: unmanagedUser) == .unmanaged)
        #expect(try app.dataIdentity(of: "documents", uiIdentity: .none) == .unmanaged)
    }

    @Test func scenario2TreatAllWebViewsAsUnmanagedMakesEveryActionUnmanaged() throws {
        var app = WebViewHierarchy(treatAllWebViewsAsUnmanaged: true)
        try app.add("eula", .wkWebView)
        try app.add("privacy", .safariViewController)
        // "Regardless of the management status of the account ..., treated as if performed by an unmanaged user."
        #expect(try app.dataIdentity(of: "eula", uiIdentity: managed) == .unmanaged)
        #expect(try app.dataIdentity(of: "privacy", uiIdentity: managed) == .unmanaged)
        #expect(try app.dataIdentity(of: "eula", uiIdentity: unmanagedUser) == .unmanaged)
    }

    @Test func scenario3PoliciesOverrideTheFlagInBothDirections() throws {
        // Majority non-user content: TreatAll + currentIdentity on the user-content views.
        var mostlyUnmanaged = WebViewHierarchy(treatAllWebViewsAsUnmanaged: true)
        try mostlyUnmanaged.add("notice", .wkWebView)
        try mostlyUnmanaged.add("mail", .wkWebView)
        try mostlyUnmanaged.setPolicy(.currentIdentity, for: "mail")
        #expect(try mostlyUnmanaged.dataIdentity(of: "notice", uiIdentity: managed) == .unmanaged)
        #expect(try mostlyUnmanaged.dataIdentity(of: "mail", uiIdentity: managed) == .managed(account: "user@contoso.com"))
        // currentIdentity means the *current* identity: an unmanaged current user stays unmanaged.
        #expect(try mostlyUnmanaged.dataIdentity(of: "mail", uiIdentity: unmanagedUser) == .unmanaged)

        // Majority user content: no flag, unmanaged on the few non-user views.
        var mostlyManaged = WebViewHierarchy()
        try mostlyManaged.add("notice", .wkWebView)
        try mostlyManaged.add("mail", .wkWebView)
        try mostlyManaged.setPolicy(.unmanaged, for: "notice")
        #expect(try mostlyManaged.dataIdentity(of: "notice", uiIdentity: managed) == .unmanaged)
        #expect(try mostlyManaged.dataIdentity(of: "mail", uiIdentity: managed) == .managed(account: "user@contoso.com"))
    }

    @Test func scenario3ContainerPoliciesReachWebViewsAddedLater() throws {
        var app = WebViewHierarchy(treatAllWebViewsAsUnmanaged: true)
        try app.add("inboxController", .container)
        try app.add("inboxPane", .container, in: "inboxController")
        try app.setPolicy(.currentIdentity, for: "inboxController")
        // "it does not have to exist within the view hierarchy at the time this API is called"
        try app.add("message", .wkWebView, in: "inboxPane")
        #expect(try app.effectivePolicy(of: "message") == .currentIdentity)
        #expect(try app.dataIdentity(of: "message", uiIdentity: managed) == .managed(account: "user@contoso.com"))
        // A later call on the web view itself overwrites what the container gave it ...
        try app.setPolicy(.unmanaged, for: "message")
        #expect(try app.effectivePolicy(of: "message") == .unmanaged)
        // ... and a later call on the container overwrites it again.
        try app.setPolicy(.unset, for: "inboxPane")
        #expect(try app.effectivePolicy(of: "message") == .unset)
        #expect(try app.dataIdentity(of: "message", uiIdentity: managed) == .unmanaged)
    }

    @Test func misuseIsReported() throws {
        var app = WebViewHierarchy()
        try app.add("root", .container)
        try app.add("web", .wkWebView, in: "root")
        #expect(throws: WebContentError(code: .duplicateView, context: "web")) { try app.add("web", .wkWebView) }
        #expect(throws: WebContentError(code: .unknownParent, context: "nowhere")) { try app.add("x", .wkWebView, in: "nowhere") }
        #expect(throws: WebContentError(code: .parentIsNotAContainer, context: "web")) { try app.add("y", .wkWebView, in: "web") }
        #expect(throws: WebContentError(code: .unknownView, context: "ghost")) { try app.setPolicy(.unmanaged, for: "ghost") }
        // "The setWebViewPolicyDelegate:forWebViewer: method must be called directly on a WKWebView or SFSafariViewController."
        #expect(throws: WebContentError(code: .delegateRequiresWebView, context: "root")) {
            try app.setExternalURLRule(ExternalURLRule(internal: []), for: "root")
        }
    }
}
