import ControlClient
import JSON

/// `expectWebViewDecision` and `expectClipboard`: the daemon decides; its answer is flattened
/// to the names the steps check (`uiIdentity` kind and `uiAccount`, `dataIdentity` kind, `from`
/// and `to` kinds) and matched partially.
extension FlowRunner {
    func checkDecision(_ kind: DecisionKind, _ question: JSONObject, _ expected: JSONObject, _ context: RunContext) async throws -> StepCheck {
        switch kind {
        case .webView:
            let answer = try await context.stack.client.webViewDecision(question)
            var flat: JSONObject = [
                "uiIdentity": answer["uiIdentity"]?["kind"] ?? .null, "uiAccount": answer["uiIdentity"]?["account"] ?? .null,
                "dataIdentity": answer["dataIdentity"]?["kind"] ?? .null, "linkPolicy": answer["linkPolicy"] ?? .null,
                "clipboardRestriction": answer["clipboardRestriction"] ?? .null,
            ]
            for key in ["navigation", "managedBrowserURL"] { flat[key] = answer[key] ?? .null }
            let detail = "UI \(flat["uiIdentity"]?.stringValue ?? "?")\(flat["uiAccount"]?.stringValue.map { " (\($0))" } ?? ""), "
                + "cut/copy/paste \(flat["dataIdentity"]?.stringValue ?? "?"), links \(flat["linkPolicy"]?.stringValue ?? "?")"
                + (flat["navigation"]?.stringValue.map { ", navigation \($0)" } ?? "")
            return Self.match(expected, .object(flat), detail)
        case .clipboard:
            let answer = try await context.stack.client.clipboardDecision(question)
            let flat: JSONObject = [
                "allowed": answer["allowed"] ?? .null, "restriction": answer["restriction"] ?? .null,
                "from": answer["from"]?["kind"] ?? .null, "to": answer["to"]?["kind"] ?? .null,
            ]
            let reason = answer["reason"]?.stringValue ?? ""
            var check = Self.match(JSONObject(expected.filter { $0.key != "reasonContains" }.map { ($0.key, $0.value) }), .object(flat), "\(answer["allowed"] == true ? "allowed" : "refused"): \(reason)")
            if let wanted = expected["reasonContains"]?.stringValue, !reason.contains(wanted) {
                check = .failed(check.detail, check.mismatches + ["reason: expected text \"\(wanted)\", got \"\(reason)\""])
            }
            return check
        }
    }

    private static func match(_ expected: JSONObject, _ answer: JSONValue, _ detail: String) -> StepCheck {
        if let miss = JSONPattern.mismatch(.object(expected), answer) { return .failed(detail, ["\(miss)"]) }
        return .passed(detail)
    }
}
