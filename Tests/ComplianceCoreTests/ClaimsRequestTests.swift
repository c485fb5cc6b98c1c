import JSON
import Testing
@testable import ComplianceCore

@Suite struct ClaimsRequestTests {
    @Test func protappCapabilityProducesTheExactParameter() throws {
        #expect(try ClaimsRequest.parameter(capabilities: ["protapp"], challenge: nil) == #"{"access_token":{"xms_cc":{"values":["protapp"]}}}"#)
    }

    @Test func noCapabilitiesAndNoChallengeSendsNothing() throws {
        #expect(try ClaimsRequest.parameter(capabilities: [], challenge: nil) == nil)
        #expect(try ClaimsRequest.parameter(capabilities: [], challenge: #"{"id_token":{"auth_time":{"essential":true}}}"#)
            == #"{"id_token":{"auth_time":{"essential":true}}}"#)
    }

    @Test func challengeMergesRecursivelyAndArraysConcatenate() throws {
        let challenge = #"{"access_token":{"nbf":{"essential":true,"value":"1700000000"},"xms_cc":{"values":["cp1"]}}}"#
        #expect(try ClaimsRequest.parameter(capabilities: ["protapp"], challenge: challenge)
            == #"{"access_token":{"xms_cc":{"values":["protapp","cp1"]},"nbf":{"essential":true,"value":"1700000000"}}}"#)
    }

    @Test func scalarsFromTheChallengeWin() {
        let base: JSONValue = ["a": ["x": 1, "y": "keep"]]
        let challenge: JSONValue = ["a": ["x": 2]]
        #expect(ClaimsRequest.merge(base, challenge) == ["a": ["x": 2, "y": "keep"]])
    }

    @Test func aChallengeCannotEraseTheCapabilityDeclaration() throws {
        let text = try #require(try ClaimsRequest.parameter(capabilities: ["protapp"], challenge: #"{"access_token":{"xms_cc":"none"}}"#))
        #expect(ClaimsRequest.declares("protapp", in: try JSONValue.parse(text)))
        let replaced = ClaimsRequest.merge(ClaimsRequest.capabilitiesClaims(["protapp"])!, ["access_token": nil])
        #expect(ClaimsRequest.declares("protapp", in: replaced))
    }

    @Test func refusesAChallengeThatIsNotAnObject() {
        for (challenge, code) in [("[1]", ClaimsError.Code.notAnObject), ("{not json", .invalidJSON)] {
            do {
                _ = try ClaimsRequest.parameter(capabilities: ["protapp"], challenge: challenge)
                Issue.record("accepted \(challenge)")
            } catch {
                #expect(error.code == code)
                #expect(!error.message.isEmpty)
            }
        }
    }
}

/// `protapp` in any case declares App Protection CA support; claim names stay exact.
@Suite struct ProtectionCapabilityCaseTests {
    @Test func theValueIsComparedIgnoringCaseTheNamesExactly() throws {
        #expect(ComplianceCore.declaresProtection(["ProtApp"]))
        #expect(ComplianceCore.declaresProtection(["cp1", "PROTAPP"]))
        #expect(!ComplianceCore.declaresProtection(["cp1"]) && !ComplianceCore.declaresProtection([]))
        #expect(ClaimsRequest.declares("protapp", in: try JSONValue.parse(#"{"access_token":{"xms_cc":{"values":["ProtApp"]}}}"#)))
        #expect(!ClaimsRequest.declares("protapp", in: try JSONValue.parse(#"{"access_token":{"XMS_CC":{"values":["protapp"]}}}"#)))
        // Sent as declared.
        let sent = try #require(try ClaimsRequest.parameter(capabilities: ["ProtApp"], challenge: nil))
        #expect(sent.contains(#""ProtApp""#))
    }
}
