import ComplianceCore
import JSON

extension EngineJSON {
    /// `{"call", "identity", "reason"?, "result", "outcome"}`: the app's answer to an SDK
    /// question about identities (`identity` `""`: no user).
    static func appAnswer(_ question: AppIdentityQuestion, _ answer: AppIdentityAnswer) -> JSONObject {
        var object: JSONObject = [
            "call": .string(question.call), "identity": .string(question.identity?.key ?? ""),
            "result": .string(answer.result), "outcome": .string(answer.outcome),
        ]
        if case .switchRequired(_, let reason) = question { object["reason"] = .string(reason.rawValue) }
        return object
    }
}
