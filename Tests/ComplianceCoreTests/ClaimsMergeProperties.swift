import JSON
import PropertyBased
import Testing
@testable import ComplianceCore

@Suite struct ClaimsMergeProperties {
    /// A random JSON value built from choices, biased toward the claim names that matter.
    static func randomJSON(_ choices: inout Choices, depth: Int) -> JSONValue {
        let keys = ["access_token", "id_token", "xms_cc", "values", "nbf", "essential", "value", "acrs"]
        switch depth > 3 ? choices.next(5) : choices.next(7) {
        case 0: return .null
        case 1: return .bool(choices.next(2) == 0)
        case 2: return .int(Int64(choices.next(100)))
        case 3: return .string(choices.pick(["protapp", "cp1", "", "x"]))
        case 4: return .double(0.5)
        case 5:
            return .array((0..<choices.next(3)).map { _ in randomJSON(&choices, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<(1 + choices.next(3)) { object[choices.pick(keys)] = randomJSON(&choices, depth: depth + 1) }
            return .object(object)
        }
    }

    @Test func mergeNeverLosesTheProtappCapability() async {
        await propertyCheck(count: 300, input: choiceLists) { list in
            var choices = Choices(list)
            var challenge = JSONObject()
            for _ in 0..<(1 + choices.next(3)) {
                challenge[choices.pick(["access_token", "id_token", "xms_cc"])] = Self.randomJSON(&choices, depth: 1)
            }
            let text = JSONValue.object(challenge).encodedString()
            let parameter = try ClaimsRequest.parameter(capabilities: ["protapp"], challenge: text)
            let merged = try JSONValue.parse(try #require(parameter))
            #expect(ClaimsRequest.declares("protapp", in: merged), "lost protapp merging \(text): \(merged)")
            // Everything the challenge asked for under other claims is still there.
            for (key, value) in challenge where key != "access_token" {
                if case .object = value { #expect(merged[key] != nil) }
            }
        }
    }
}
