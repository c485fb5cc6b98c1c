import Testing
@testable import ComplianceCore

/// Issue 52 item 14: an API named by its application ID is the same API as its App ID URI spelling.
@Suite struct ScopeSpellingTests {
    static let appId = "c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c"

    @Test func anApplicationIDScopeIsGrantedByItsAppIDURISpelling() {
        #expect(DeclinedScopes.declined(requested: ["\(Self.appId)/Chat.Read", "openid"], granted: ["api://contoso-chat/Chat.Read", "openid"]).isEmpty)
        #expect(DeclinedScopes.declined(requested: ["api://contoso-chat/chat.read"], granted: ["\(Self.appId.uppercased())/Chat.Read"]).isEmpty)
    }

    @Test func aPartialGrantUnderTheOtherSpellingStillDeclinesTheRest() {
        #expect(DeclinedScopes.declined(
            requested: ["\(Self.appId)/Chat.Read", "\(Self.appId)/Chat.Admin"], granted: ["api://contoso-chat/Chat.Read"]) == ["\(Self.appId)/Chat.Admin"])
    }

    @Test func twoURIsOrAnotherNameAreStillDifferentScopes() {
        // Neither resource is an application ID: nothing says they are one API.
        #expect(DeclinedScopes.declined(requested: ["api://one/Read"], granted: ["api://two/Read"]) == ["api://one/Read"])
        #expect(DeclinedScopes.declined(requested: ["\(Self.appId)/Chat.Write"], granted: ["api://contoso-chat/Chat.Read"]) == ["\(Self.appId)/Chat.Write"])
        #expect(!ScopeName.isApplicationID("api://contoso-chat"))
        #expect(!ScopeName.isApplicationID("c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5"))
    }
}
