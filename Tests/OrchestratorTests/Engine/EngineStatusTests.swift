import ComplianceCore
import Foundation
import JSON
import Orchestrator
import Testing

/// The engine against a real (in-process) mockauth: every compliance status is reachable and
/// each is the one the SDK would report.
@Suite struct EngineStatusTests {
    @Test func aliceSignInGets53005RemediatesAndIsCompliant() async throws {
        try await EngineHarness.run { harness in
            let outcome = try await harness.signIn("alice@contoso.com")
            #expect(outcome.signedIn)
            #expect(outcome.token.status == .compliant)
            #expect(outcome.token.remediated)
            let tokens = try #require(outcome.token.tokens)
            let claims = try #require(JWTClaims.payload(of: tokens.accessToken.reveal()))
            #expect(claims["xms_cc"] == ["protapp"])
            #expect(claims["upn"] == "alice@contoso.com")

            let kinds = try await harness.events().map(\.kind)
            let expected = ["tokenFailed", "remediationStarted", "enrollment", "restartRequired", "appRestarted", "tokenAcquired", "compliance", "signedIn"]
            #expect(kinds.filter(expected.contains) == expected)
            let failed = try #require(try await harness.events().first { $0.kind == "tokenFailed" })
            #expect(failed.payload["errorCodes"] == [53005])
            #expect(failed.payload["suberror"] == "protection_policy_required")

            let summary = try await harness.engine.account("ALICE@contoso.com")
            #expect(summary.managed && summary.enrollmentState == .enrolled && summary.compliance == .compliant)

            let again = try await harness.engine.acquireToken("alice@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: true, user: nil)
            #expect(again.status == .compliant && !again.remediated)
        }
    }

    @Test func carolIsNeverCompliantAndGetsNoToken() async throws {
        try await EngineHarness.run { harness in
            let outcome = try await harness.signIn("carol@contoso.com")
            #expect(!outcome.signedIn)
            #expect(outcome.token.status == .notCompliant)
            #expect(outcome.token.tokens == nil)
            #expect(outcome.token.report?.enrollmentStatus == .licensedNotTargeted)
            let silent = try await harness.engine.acquireToken("carol@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: true, user: nil)
            #expect(silent.tokens == nil)
        }
    }

    @Test func daveIsRefusedOnceThePolicyIsKnownAndCaseVariantsAreAlice() async throws {
        try await EngineHarness.run { harness in
            let bob = try await harness.signIn("bob@contoso.com")
            #expect(bob.signedIn && bob.token.status == .compliant && !bob.token.remediated)
            await #expect(throws: EngineError.self) { try await harness.signIn("dave@contoso.com") }
            do {
                try await harness.signIn("dave@contoso.com")
            } catch let error as EngineError {
                #expect(error.code == .signInRefused)
                #expect(error.message.contains("dave@contoso.com"))
            }
            let variant = try await harness.engine.signIn("ALICE@Contoso.com", scopes: EngineHarness.chatRead, silent: false, user: EngineHarness.password)
            #expect(variant.account.key == "alice@contoso.com")
            #expect(variant.token.status == .notCompliant)  // bob is the managed account: 227
            #expect(variant.token.report?.enrollmentStatus == .singleManagedAccountMode)
            let accounts = try await harness.engine.accounts().map(\.account.key)
            #expect(accounts.filter { $0 == "alice@contoso.com" }.count == 1)
            if accounts.contains("dave@contoso.com") {
                let dave = try await harness.engine.account("dave@contoso.com")
                #expect(!dave.signedIn)
            }
        }
    }

    @Test func aFailedTokenRequestOrSignInLeavesNoAccountBehind() async throws {
        try await EngineHarness.run { harness in
            // An account the tenant does not know, then a known one with a wrong password.
            let stranger = try await harness.engine.acquireToken(
                "nobody@contoso.com", scopes: EngineHarness.chatRead, silent: false, remediate: true, user: EngineHarness.password)
            #expect(stranger.tokens == nil && stranger.status != .compliant)
            let wrong = try await harness.engine.signIn(
                "bob@contoso.com", scopes: EngineHarness.chatRead, silent: false, user: .signIn(password: "not-the-password"))
            #expect(!wrong.signedIn && wrong.token.tokens == nil)
            // The page refused the password: the user is needed again, not a broken service.
            #expect(wrong.token.status == .interactionRequired, "\(wrong.token)")
            #expect("\(wrong.token.failure.map { "\($0)" } ?? "")".contains("password is incorrect"), "\(String(describing: wrong.token.failure))")
            #expect(try await harness.engine.accounts().isEmpty)
            do {
                _ = try await harness.engine.account("nobody@contoso.com")
                Issue.record("nobody@contoso.com became a known account")
            } catch let error as EngineError {
                #expect(error.code == .unknownAccount)
            }
            // The same account signs in with its password: now it is known, once.
            let bob = try await harness.signIn("bob@contoso.com")
            #expect(bob.signedIn)
            #expect(try await harness.engine.accounts().map(\.account.key) == ["bob@contoso.com"])
        }
    }

    @Test func anUnreachableIssuerIsANetworkFailure() async throws {
        try await EngineHarness.run(authority: "http://127.0.0.1:9/contoso.com") { harness in
            let outcome = try await harness.signIn("alice@contoso.com")
            #expect(outcome.token.status == .networkFailure)
            #expect(!outcome.signedIn)
        }
    }

    @Test func aConnectionResetByTheIssuerIsANetworkFailure() async throws {
        try await EngineHarness.run { harness in
            try await harness.admin(.post, "faults", ["route": "token", "action": "reset", "count": 10])
            let outcome = try await harness.signIn("bob@contoso.com")
            #expect(outcome.token.status == .networkFailure)
            #expect(!outcome.signedIn)
            try await harness.admin(.delete, "faults")
            #expect(try await harness.signIn("bob@contoso.com").token.status == .compliant)
        }
    }

    @Test func aMAMServiceFailureIsAServiceFailure() async throws {
        try await EngineHarness.run { harness in
            try await harness.admin(.post, "faults", ["route": "mam.enroll", "status": 503, "count": 1])
            let outcome = try await harness.signIn("alice@contoso.com")
            #expect(outcome.token.status == .serviceFailure)
            #expect(outcome.token.report?.enrollmentStatus == .internalError)
        }
    }

    @Test func aMalformedMAMAnswerIsAServiceFailureNamingTheParseError() async throws {
        try await EngineHarness.run { harness in
            try await harness.admin(.post, "faults", ["route": "mam.enroll", "action": "malformed", "count": 1])
            let outcome = try await harness.signIn("alice@contoso.com")
            #expect(outcome.token.status == .serviceFailure)
            #expect(outcome.token.report?.enrollmentStatus == .parsingFailure)
            #expect(outcome.token.report?.message.contains("not valid JSON") == true)
        }
    }

    @Test func silentRemediationNeedsInteractionThenInteractiveSucceeds() async throws {
        try await EngineHarness.run { harness in
            let silent = try await harness.engine.remediate("alice@contoso.com", silent: true, user: nil)
            #expect(silent.report.status == .interactionRequired)
            let interactive = try await harness.signIn("alice@contoso.com")
            #expect(interactive.token.status == .compliant)
        }
    }

    @Test func aCancelledSignInIsUserCancelled() async throws {
        try await EngineHarness.run { harness in
            let outcome = try await harness.engine.signIn("alice@contoso.com", scopes: EngineHarness.chatRead, silent: false, user: .cancel)
            #expect(outcome.token.status == .userCancelled)
            let remediation = try await harness.engine.remediate("alice@contoso.com", silent: false, user: .cancel)
            #expect(remediation.report.status == .userCancelled)
        }
    }

    @Test func anAppWithoutProtappGets53009AndIsNotRemediated() async throws {
        let directory = NSTemporaryDirectory() + "noprotapp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try Data(contentsOf: URL(fileURLWithPath: EngineHarness.appsDirectory + "/chatr-Info.plist"))
        var plist = try #require(try PropertyListSerialization.propertyList(from: source, format: nil) as? [String: Any])
        plist["MSALClientCapabilities"] = [String]()
        let profile = directory + "/Info.plist"
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(fileURLWithPath: profile))
        try await EngineHarness.run(app: profile) { harness in
            let outcome = try await harness.signIn("alice@contoso.com")
            #expect(outcome.token.status == .notCompliant)
            #expect(!outcome.token.remediated)
            guard case .capabilityMissing(let error)? = outcome.token.failure else {
                Issue.record("expected capabilityMissing, got \(String(describing: outcome.token.failure))")
                return
            }
            #expect(error.errorCodes == [53009])
        }
    }
}
