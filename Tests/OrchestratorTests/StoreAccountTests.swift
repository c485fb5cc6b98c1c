import ComplianceCore
import Foundation
import GRDB
import JSON
import Testing
@testable import Orchestrator

@Suite struct StoreAccountTests {
    @Test func accountsAreKeyedCaseInsensitivelyAndKeepTheirDisplayForm() async throws {
        try await withTemporaryDirectory { root in
            let clock = ManualClock()
            let store = try openStore(root, clock: clock)
            let created = try await store.upsertAccount(alice, homeAccountID: "oid-a.tid-1", signedIn: true, managed: false)
            #expect(created.createdAt == clock.now && created.updatedAt == clock.now)
            clock.advance(by: 1000)
            let updated = try await store.upsertAccount(try! AccountID("ALICE@contoso.com"), signedIn: false, managed: true)
            #expect(updated.id.key == "alice@contoso.com")
            #expect(updated.id.upn == "ALICE@contoso.com")
            #expect(updated.homeAccountID == "oid-a.tid-1", "a nil home account id keeps the stored one")
            #expect(!updated.signedIn && updated.managed)
            #expect(updated.createdAt == created.createdAt && updated.updatedAt == created.createdAt + 1000)
            try await store.upsertAccount(bob, signedIn: true, managed: false)
            #expect(try await store.accounts().map(\.id.key) == ["alice@contoso.com", "bob@contoso.com"])
            #expect(try await store.account(try! AccountID("nobody@contoso.com")) == nil)
        }
    }

    @Test func tokensRoundTripPerClientAndScopeSet() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await store.upsertAccount(alice, signedIn: true, managed: false)
            let graph = ScopeSet(["User.Read", "openid", "user.read"])
            #expect(graph.scopes == ["openid", "user.read"])
            try await store.saveTokens(CachedTokens(
                account: alice, clientID: "app", scopes: graph,
                accessToken: "at-graph", expiresAt: 42, idToken: "id-1", refreshToken: "rt-1"))
            try await store.saveTokens(CachedTokens(
                account: alice, clientID: "app", scopes: ScopeSet(["https://msmamservice.api.application/.default"]),
                accessToken: "at-mam", expiresAt: 43))
            let cached = try #require(try await store.tokens(for: alice, clientID: "app", scopes: ScopeSet(["openid", "USER.READ"])))
            #expect(cached.accessToken == "at-graph" && cached.expiresAt == 42 && cached.idToken == "id-1")
            #expect(cached.refreshToken == "rt-1")
            let mam = try #require(try await store.tokens(for: alice, clientID: "app", scopes: ScopeSet(["https://msmamservice.api.application/.default"])))
            #expect(mam.accessToken == "at-mam" && mam.refreshToken == "rt-1", "the refresh token is per account and client")
            // A scope set with no access token still yields the client's refresh token.
            let other = try #require(try await store.tokens(for: alice, clientID: "app", scopes: ScopeSet(["mail.read"])))
            #expect(other.accessToken == nil && other.refreshToken == "rt-1")
            #expect(try await store.tokens(for: alice, clientID: "other-app", scopes: graph) == nil)

            try await store.deleteRefreshToken(for: alice, clientID: "app")
            #expect(try await store.tokens(for: alice, clientID: "app", scopes: graph)?.refreshToken == nil)
            try await store.deleteTokens(for: alice)
            #expect(try await store.tokens(for: alice, clientID: "app", scopes: graph) == nil)
        }
    }

    @Test func tokenDescriptionsNeverShowTokens() {
        let tokens = CachedTokens(
            account: alice, clientID: "app", scopes: ScopeSet(["openid"]),
            accessToken: "eyJ-secret-access", expiresAt: 1, idToken: "eyJ-secret-id", refreshToken: "0.secret-refresh")
        let text = tokens.description + "\(tokens)"
        #expect(!text.contains("secret"))
        #expect(text.contains("<redacted"))
        #expect(text.contains("Alice@Contoso.com"))
    }

    @Test func savingDataForAnUnknownAccountIsAClearError() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            let error = await #expect(throws: StoreError.self) {
                try await store.saveTokens(CachedTokens(account: alice, clientID: "app", scopes: ScopeSet(["openid"]), refreshToken: "rt"))
            }
            #expect(error?.code == .unknownAccount)
            #expect(error?.account == "alice@contoso.com")
            #expect(error?.description.contains("secret") == false)
        }
    }

    @Test func deletingAnAccountCascadesToItsRowsButKeepsJournalsAndEvents() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await fill(store, alice)
            #expect(try await store.deleteAccount(alice))
            #expect(try await store.tokens(for: alice, clientID: "app", scopes: ScopeSet(["openid"])) == nil)
            #expect(try await store.enrollment(for: alice) == nil)
            let left = try await rows(of: alice, in: store).map { $0.prefix { $0 != " " } }
            #expect(Set(left) == ["journal", "event"], "the cascade leaves only the journal and the events: \(left)")
            #expect(try await store.events(since: 0, limit: 10).contains { $0.account == alice })
            #expect(try await !store.deleteAccount(alice))
        }
    }

    @Test func changingAliceNeverTouchesBobsRows() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await fill(store, alice)
            try await fill(store, bob)
            let bobBefore = try await rows(of: bob, in: store)
            let aliceBefore = try await rows(of: alice, in: store)
            #expect(!bobBefore.isEmpty)

            try await store.upsertAccount(alice, homeAccountID: "new.tid", signedIn: false, managed: false)
            try await store.saveTokens(CachedTokens(account: alice, clientID: "app", scopes: ScopeSet(["openid"]), accessToken: "x", expiresAt: 9, refreshToken: "y"))
            try await store.saveEnrollment(for: alice, state: ["phase": "wiped"], lastStatus: 102, nextDueAt: nil)
            try store.writeSync { tx in
                try EarlierLayout.savePolicy(tx, alice, version: "9", policy: [:])
                try EarlierLayout.schedule(tx, "checkIn", alice, at: 1)
                try EarlierLayout.saveJournal(tx, alice, kind: "wipe", step: "tokens", state: [:])
            }
            #expect(try await rows(of: alice, in: store) != aliceBefore, "the changes did happen")
            #expect(try await rows(of: bob, in: store) == bobBefore)

            try await store.deleteRefreshToken(for: alice, clientID: "app")
            try await store.deleteAccessTokens(for: alice, clientID: "app")
            try await store.deleteTokens(for: alice)
            try await store.deleteEnrollment(for: alice)
            try await store.deleteAccount(alice)
            try await store.write { tx in try tx.db.execute(sql: "DELETE FROM journal WHERE account = ?", arguments: [alice.key]) }
            #expect(try await rows(of: alice, in: store).filter { !$0.hasPrefix("event") }.isEmpty)
            #expect(try await rows(of: bob, in: store) == bobBefore)
        }
    }
}

/// Gives `account` one row in every account-scoped table.
func fill(_ store: OrchestratorStore, _ account: AccountID) async throws {
    try await store.write { tx in
        try tx.upsertAccount(account, homeAccountID: "oid.\(account.key)", signedIn: true, managed: true)
        try tx.saveTokens(CachedTokens(
            account: account, clientID: "app", scopes: ScopeSet(["openid"]),
            accessToken: "at-\(account.key)", expiresAt: 100, idToken: "id", refreshToken: "rt-\(account.key)"))
        try tx.saveEnrollment(for: account, state: ["phase": "enrolled"], lastStatus: 100, nextDueAt: 8 * 3600 * 1000)
        try EarlierLayout.savePolicy(tx, account, version: "1", policy: ["fileEncryptionRequired": true])
        try EarlierLayout.schedule(tx, "checkIn", account, at: 500)
        try EarlierLayout.saveJournal(tx, account, kind: "wipe", step: "vault", state: ["left": ["tokens"]])
        try tx.appendEvent("signedIn", account: account, payload: ["upn": .string(account.upn)])
    }
}

/// Every row that belongs to `account`, as text, table by table.
func rows(of account: AccountID, in store: OrchestratorStore) async throws -> [String] {
    try await store.read { tx in
        var result: [String] = []
        for (table, column) in [("account", "key"), ("refresh_token", "account"), ("access_token", "account"), ("enrollment", "account"),
                                ("policy", "account"), ("schedule", "account"), ("journal", "account"), ("event", "account")] {
            for row in try Row.fetchAll(tx.db, sql: "SELECT * FROM \(table) WHERE \(column) = ? ORDER BY rowid", arguments: [account.key]) {
                result.append("\(table) \(row)")
            }
        }
        return result
    }
}
