import JSON
import Testing
@testable import ComplianceCore

/// End-to-end scenarios of the sub-machines with a miniature in-test runner: it executes
/// each action against scripted services, stores snapshots as JSON text, and feeds results
/// back — the loop the composed machine (``ComplianceMachine``) runs for them.
@Suite struct OrchestrationScenarioTests {
    let authority = "https://login.example.test/contoso.onmicrosoft.com"
    let ppr = #"{"error":"unauthorized_client","error_description":"AADSTS53005: Application needs to enforce Intune protection policies.","error_codes":[53005],"suberror":"protection_policy_required","adi":"alice@contoso.com"}"#
    let granted = #"{"token_type":"Bearer","access_token":"AT-after-remediation","refresh_token":"RT2","expires_in":3600,"scope":"user.read"}"#

    /// Runs one token request to its outcome against a scripted token endpoint.
    func acquire(_ request: TokenAcquisitionStateMachine.Request, cache: TokenAcquisitionStateMachine.CacheEntry, responses: inout [(Int, String)], sentClaims: inout [String?]) -> TokenAcquisitionStateMachine.Action {
        var machine = TokenAcquisitionStateMachine(request: request)
        var action = machine.start()
        while true {
            switch action {
            case .readCache:
                action = machine.cacheRead(cache, now: t0)
            case .requestToken(_, _, _, let claims):
                sentClaims.append(claims)
                let (status, body) = responses.removeFirst()
                let response = TokenResponseClassifier.classify(status: status, headers: [], body: Array(body.utf8), receivedAt: t0, authority: authority)
                action = machine.tokenResponseReceived(response)
            case .removeRefreshToken:
                action = machine.refreshTokenRemoved()
            case .deliverTokens, .keepGranted, .fail, .none:
                return action
            }
        }
    }

    @Test func protectionPolicyRequiredIsRemediatedAcrossARestartToACompliantToken() throws {
        var responses: [(Int, String)] = [(400, ppr), (200, granted)]
        var sentClaims: [String?] = []
        let request = TokenAcquisitionStateMachine.Request(account: alice, scopes: ["user.read"], allowInteraction: false)

        // 1. The token request fails with protection-policy-required.
        let first = acquire(request, cache: .init(accessToken: nil, refreshToken: SecretToken("rt-1")), responses: &responses, sentClaims: &sentClaims)
        guard case .fail(.protectionPolicyRequired(let details)) = first else { Issue.record("expected PPR, got \(first)"); return }
        #expect(details.displayableID == "alice@contoso.com")
        #expect(details.tenantID == "contoso.onmicrosoft.com")

        // 2. Remediation runs; the store keeps the JSON text of each snapshot.
        var store: [String: [UInt8]] = [:]
        var remediation = RemediationStateMachine()
        var enrollment = EnrollmentStateMachine(account: alice)
        var delivered: [(ComplianceStatusReport, TokenSet?)] = []
        var restarted = false
        var action = remediation.remediate(try AccountID(try #require(details.displayableID)), silent: true)
        var guardCount = 0
        loop: while guardCount < 50 {
            guardCount += 1
            store["remediation"] = remediation.snapshot.json.encoded()  // the step's commit, before its action
            switch action {
            case .acquireMAMToken(let account, let silent):
                #expect(account == alice && silent)
                action = remediation.mamTokenAcquired()
            case .enroll:
                action = remediation.enrollmentSucceeded()
                #expect(enrollment.remediationEnrolled(now: t0) == .none)
                store["enrollment.alice"] = enrollment.snapshot.json.encoded()
                #expect(enrollment.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(8))))
            case .fetchPolicy:
                let policy = try MAMPolicy(json: try JSONValue.parse(#"{"version":"7","allowedAccounts":["Alice@Contoso.com"],"pinRequired":true}"#))
                action = remediation.policyReceived(policy)
            case .applyPolicy(_, let policy):
                #expect(policy.document["pinRequired"] == true)
                action = remediation.policyApplied()
            case .restartApp:
                // The process restarts: everything in memory is gone but the store.
                restarted = true
                remediation = RemediationStateMachine(restoring: try .init(json: try JSONValue.parse(try #require(store["remediation"]))))
                enrollment = EnrollmentStateMachine(restoring: try .init(json: try JSONValue.parse(try #require(store["enrollment.alice"]))))
                #expect(enrollment.resumed() == .none)
                #expect(enrollment.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(8))))
                action = remediation.resumed()
            case .reportCompliance:
                action = remediation.complianceReported()
            case .retryTokenRequest:
                let retried = acquire(request, cache: .init(accessToken: nil, refreshToken: SecretToken("rt-1")), responses: &responses, sentClaims: &sentClaims)
                guard case .deliverTokens(let tokens, store: true) = retried else { Issue.record("retry gave \(retried)"); return }
                action = remediation.retriedTokenRequestCompleted(.success(tokens))
            case .deliverStatus(let report, let tokens):
                delivered.append((report, tokens))
                action = remediation.statusDelivered()
            case .startWipe, .none:
                break loop
            }
        }
        #expect(restarted)
        #expect(delivered.count == 1)
        #expect(delivered.first?.0.status == .compliant)
        #expect(delivered.first?.1?.accessToken.reveal() == "AT-after-remediation")
        #expect(sentClaims == [#"{"access_token":{"xms_cc":{"values":["protapp"]}}}"#, #"{"access_token":{"xms_cc":{"values":["protapp"]}}}"#])
        #expect(remediation.holdsManagedData(alice))
    }

    @Test func anAllowedListChangeSignsOutAndWipesOnlyTheRemovedAccount() throws {
        var allowed = AllowedAccountsStateMachine()
        for account in [alice, bob] {
            #expect(allowed.signedIn(account) == .none)
        }
        let list = try AllowedAccounts(json: try JSONValue.parse(#"["alice@contoso.com"]"#))
        guard case .signOutAndWipe(let removed) = allowed.allowedAccountsReceived(list) else { Issue.record("no removal"); return }
        #expect(removed == [bob])

        var wipes: [AccountID: SelectiveWipeStateMachine] = [:]
        var effects: [String] = []
        for account in removed {
            var wipe = SelectiveWipeStateMachine(account: account)
            var action = wipe.wipeRequested(reason: .notAllowed, runAppHook: true)
            while true {
                switch action {
                case .removeTokens(let who): effects.append("tokens:\(who)"); action = wipe.tokensRemoved()
                case .runAppHook(let who): effects.append("hook:\(who)"); action = wipe.appHookFinished(removedData: false, outcome: "exited with status 1")
                case .removeVaultFiles(let who): effects.append("vault:\(who)"); action = wipe.vaultRemoved()
                case .removeEnrollment(let who): effects.append("enrollment:\(who)"); action = wipe.enrollmentRemoved()
                case .finished, .none: break
                }
                if case .finished = action { break }
            }
            #expect(wipe.takeEvents() == [
                .wipeStarted(account, .notAllowed), .wipeHookRan(account, outcome: "exited with status 1", appRemovedData: false), .wipeFinished(account),
            ])
            wipes[account] = wipe
            #expect(allowed.accountRemoved(account) == .none)
        }
        #expect(effects == ["tokens:bob@contoso.com", "hook:bob@contoso.com", "vault:bob@contoso.com", "enrollment:bob@contoso.com"])
        #expect(allowed.signedInAccounts == [alice])
        #expect(allowed.mayReceiveToken(alice) && !allowed.mayReceiveToken(bob))
        #expect(wipes[bob]?.isFinished == true)
    }
}
