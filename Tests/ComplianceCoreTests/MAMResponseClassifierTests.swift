import JSON
import Testing
@testable import ComplianceCore

/// The MAM service's answers classified by ComplianceCore (issue 37: the Engine decides
/// nothing): each request's successes, the statuses of failed calls, and arbitrary bodies.
@Suite struct MAMResponseClassifierTests {
    static let alice = try! AccountID("alice@contoso.com")
    static let token = SecretToken("t")
    static let enroll = ComplianceMachine.MAMRequest.enroll(alice, token: token)
    static let checkIn = ComplianceMachine.MAMRequest.checkIn(alice, enrollmentID: "e1", policyVersion: "1", token: token)
    static let unenroll = ComplianceMachine.MAMRequest.unenroll(alice, enrollmentID: "e1", token: token)
    static let report = ComplianceMachine.MAMRequest.reportCompliance(alice, enrollmentID: "e1", policyVersion: "1", token: token)
    static let policy: JSONValue = ["version": 3, "allowedAccounts": ["alice@contoso.com"]]

    static func status(_ result: ComplianceMachine.MAMResult) -> EnrollmentStatus? {
        if case .failed(let status, _) = result { return status }
        return nil
    }

    @Test func eachRequestAcceptsItsOwnSuccesses() {
        guard case .enrolled(.newPoliciesReceived, "e1", let policy?) = MAMResponseClassifier.classify(
            Self.enroll, answer: ["status": 100, "enrollmentId": "e1", "policy": Self.policy])
        else { Issue.record("an enroll with its id and policy"); return }
        #expect(policy.version == "3", "a numeric version reads as a string")
        #expect(Self.status(MAMResponseClassifier.classify(Self.enroll, answer: ["status": 100])) == .parsingFailure, "no enrollmentId")
        #expect(Self.status(MAMResponseClassifier.classify(Self.enroll, answer: ["status": 104, "enrollmentId": "e1"])) == .parsingFailure)
        #expect(Self.status(MAMResponseClassifier.classify(Self.enroll, answer: ["status": 227])) == .singleManagedAccountMode)
        #expect(MAMResponseClassifier.classify(Self.checkIn, answer: ["status": 101]) == .checkedIn(.policiesHaveNotChanged))
        #expect(MAMResponseClassifier.classify(Self.checkIn, answer: ["status": 102]) == .checkedIn(.wipeReceived))
        #expect(Self.status(MAMResponseClassifier.classify(Self.checkIn, answer: ["status": 100, "policy": "x"])) == .parsingFailure)
        #expect(MAMResponseClassifier.classify(Self.unenroll, answer: ["status": 104]) == .unenrolled)
        #expect(Self.status(MAMResponseClassifier.classify(Self.unenroll, answer: ["status": 100])) == .parsingFailure)
        #expect(MAMResponseClassifier.classify(Self.report, answer: ["complianceStatus": 0]) == .complianceReported)
        #expect(Self.status(MAMResponseClassifier.classify(Self.report, answer: ["complianceStatus": 1, "reason": "noPolicy"])) == .licensedNotTargeted)
        #expect(Self.status(MAMResponseClassifier.classify(Self.report, answer: ["complianceStatus": 1])) == .notEnrolledAccount)
        #expect(Self.status(MAMResponseClassifier.classify(Self.report, answer: ["status": "100"])) == .parsingFailure, "a status that is not a number")
        #expect(Self.status(MAMResponseClassifier.classify(Self.report, answer: ["status": 99999])) == .parsingFailure, "an unknown code")
    }

    @Test func callsWithoutAnAnswerMapToTheSDKsStatuses() {
        #expect(Self.status(MAMResponseClassifier.classify(Self.enroll, failure: .network, detail: "")) == .enrollmentEndPointNetworkFailure)
        #expect(Self.status(MAMResponseClassifier.classify(Self.checkIn, failure: .network, detail: "")) == .policyEndPointNetworkFailure)
        #expect(Self.status(MAMResponseClassifier.classify(Self.report, failure: .unauthorized, detail: "")) == .authRequired)
        #expect(Self.status(MAMResponseClassifier.classify(Self.unenroll, failure: .malformed, detail: "")) == .parsingFailure)
        #expect(Self.status(MAMResponseClassifier.classify(Self.checkIn, failure: .status(503), detail: "HTTP 503")) == .internalError)
    }

    /// Arbitrary bodies (a fixed-seed generator over JSON-ish text) classify without a crash,
    /// and an answer without a known status is never a success.
    @Test func arbitraryAnswersNeverCrashAndNeverSucceedWithoutAStatus() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        let pieces = ["{", "}", "\"status\"", ":", ",", "100", "102", "104", "208", "-1", "1e309", "\"enrollmentId\"", "\"e\"", "\"policy\"",
                      "[", "]", "null", "true", "\"version\"", "\"complianceStatus\"", "0", "\"reason\"", "\"noPolicy\"", "\"\\u0000\""]
        for _ in 0..<3000 {
            let text = (0..<Int(next() % 24)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
            guard case .object(let object)? = try? JSONValue.parse(Array(text.utf8)) else { continue }
            for request in [Self.enroll, Self.checkIn, Self.unenroll, Self.report] {
                let result = MAMResponseClassifier.classify(request, answer: object)
                if object["status"]?.intValue.flatMap({ EnrollmentStatus(rawValue: Int($0)) }) == nil, object["complianceStatus"] == nil {
                    #expect(Self.status(result) == .parsingFailure, "\(text) → \(result)")
                }
            }
        }
    }

    /// A 429 or 5xx with `Retry-After` asks the machine to hold the service; anything else
    /// is the classified failure alone.
    @Test func aServiceThatAsksToWaitIsHeldOthersAreNot() {
        let held = MAMResponseClassifier.stepResult(Self.enroll, failure: .status(503, retryAfterSeconds: 30), detail: "busy")
        guard case .mamAskedToWait(let result, let wait) = held else {
            Issue.record("503 with Retry-After: \(held)")
            return
        }
        #expect(Self.status(result) == .internalError)
        #expect(wait == .init(status: 503, wait: .seconds(30)))
        if case .mamAskedToWait = MAMResponseClassifier.stepResult(Self.checkIn, failure: .status(429, retryAfterSeconds: 5), detail: "") {} else {
            Issue.record("429 with Retry-After is held")
        }
        for failure: MAMResponseClassifier.CallFailure in [
            .status(503), .status(503, retryAfterSeconds: 0), .status(404, retryAfterSeconds: 30), .network, .unauthorized, .malformed, .noService,
        ] {
            guard case .mam = MAMResponseClassifier.stepResult(Self.enroll, failure: failure, detail: "") else {
                Issue.record("\(failure) is not held")
                continue
            }
        }
    }

    /// A call with no service to send it to (a resumed store, a daemon without `--mam-url`)
    /// is InternalError for every request, never held.
    @Test func aCallWithNoServiceIsInternalError() {
        for request in [Self.enroll, Self.checkIn] {
            #expect(Self.status(MAMResponseClassifier.classify(request, failure: .noService, detail: "none")) == .internalError)
        }
    }

    /// No MAM token: sign in again, unless the token cache could not be read (no sign-in mends that).
    @Test func aMissingMAMTokenIsAuthRequiredUnlessTheCacheIsUnreadable() {
        #expect(Self.status(MAMResponseClassifier.tokenFailed(.interactionRequired(nil))) == .authRequired)
        #expect(Self.status(MAMResponseClassifier.tokenFailed(.tokenCacheUnreadable("disk I/O error"))) == .internalError)
    }
}
