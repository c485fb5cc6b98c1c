import Testing
@testable import ComplianceCore

/// RFC 8628 §3.5's polling answers, fed as the token endpoint gives them.
@Suite struct DeviceCodePollTests {
    static func poll(_ status: Int, _ body: String) -> DeviceCodePoll {
        DeviceCodePoll.classify(status: status, body: Array(body.utf8))
    }

    @Test func thePollingErrorsMeanWaitSlowDownDeclinedOrExpired() {
        #expect(Self.poll(400, #"{"error":"authorization_pending"}"#) == .pending)
        #expect(Self.poll(400, #"{"error":"slow_down"}"#) == .slowDown)
        #expect(Self.poll(400, #"{"error":"access_denied"}"#) == .declined)
        #expect(Self.poll(400, #"{"error":"authorization_declined"}"#) == .declined)
        #expect(Self.poll(400, #"{"error":"expired_token"}"#) == .expired)
        #expect(Self.poll(400, #"{"error":"code_expired"}"#) == .expired)
        #expect(DeviceCodePoll.slowDownIncrementSeconds == 5)
    }

    @Test func everythingElseIsTheFinalAnswer() {
        #expect(Self.poll(200, #"{"access_token":"a","token_type":"Bearer"}"#) == .final)
        #expect(Self.poll(400, #"{"error":"invalid_grant"}"#) == .final)
        #expect(Self.poll(401, #"{"error":"authorization_pending"}"#) == .final, "a polling error only with HTTP 400")
        #expect(Self.poll(400, "not json") == .final)
        #expect(Self.poll(400, #"{"error":7}"#) == .final)
        #expect(Self.poll(503, "") == .final)
    }
}
