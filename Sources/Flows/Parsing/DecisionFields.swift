import ComplianceCore
import JSON

/// The steps that ask the running daemon for a web-content decision (flows/README.md, "Checks"):
/// `expectWebViewDecision` (`POST /v1/webview/decide`) and `expectClipboard`
/// (`POST /v1/clipboard/decide`). Unlike `expectWebView`, the UI identity and the policy are
/// not given: the daemon's effective UI identity and the managed account's policy in force
/// decide. Every name is checked when the flow is read.
enum DecisionFields {
    static let names = ["expectWebViewDecision", "expectClipboard"]

    static let sides = ["app", "webView", "managedApp", "unmanagedApp"]

    static func action(_ name: String, _ fields: inout FieldReader) throws(FlowError) -> StepAction {
        name == "expectWebViewDecision" ? try webView(&fields) : try clipboard(&fields)
    }

    private static func webView(_ fields: inout FieldReader) throws(FlowError) -> StepAction {
        var question = JSONObject()
        let policy = try fields.choice("policy", WebFields.cases(WebViewPolicy.self), default: .unset)
        question["policy"] = .string(policy.rawValue)
        if let url = try fields.optionalString("url") {
            guard WebURL(url) != nil else { throw fields.fail("\(fields.place): field 'url': '\(url)' is not a URL (scheme:…)") }
            question["url"] = .string(url)
            question["frame"] = .string(try fields.choice("frame", WebNames.frames.map { ($0.0, $0.0) }, default: "top"))
        } else if let stray = ["frame", "delegate"].first(where: { fields.has($0) }) {
            throw fields.fail("\(fields.place): field '\(stray)' goes with 'url' (the navigation it describes)")
        }
        if let value = fields.value("delegate") {
            _ = try WebFields.delegate(value, place: fields.place + ": delegate", fail: fields.fail)
            question["delegate"] = true
            for (key, list) in value.objectValue ?? JSONObject() { question[key] = list }
        }
        guard let value = fields.value("expect") else { throw fields.fail("\(fields.place): field 'expect' is required") }
        var expect = try FieldReader(value, place: fields.place + ": expect", fail: fields.fail)
        var expected = JSONObject()
        let kinds = [("managed", "managed"), ("unmanaged", "unmanaged"), ("none", "none")]
        if expect.has("uiIdentity") { expected["uiIdentity"] = .string(try expect.choice("uiIdentity", kinds, default: nil)) }
        if let account = try expect.optionalString("uiAccount") { expected["uiAccount"] = .string(account.lowercased()) }
        if expect.has("dataIdentity") { expected["dataIdentity"] = .string(try expect.choice("dataIdentity", Array(kinds.prefix(2)), default: nil)) }
        if expect.has("linkPolicy") {
            expected["linkPolicy"] = .string(try expect.choice("linkPolicy", WebFields.cases(WebLinkPolicy.self), default: nil).rawValue)
        }
        if expect.has("clipboardRestriction") {
            expected["clipboardRestriction"] = .string(try expect.choice("clipboardRestriction", WebFields.cases(ClipboardRestriction.self), default: nil).rawValue)
        }
        if expect.has("navigation") {
            guard question["url"] != nil else { throw expect.fail("\(expect.place): 'navigation' needs the step's 'url'") }
            expected["navigation"] = .string(try expect.choice("navigation", WebNames.navigationDecisionNames.map { ($0, $0) }, default: nil))
        }
        if let edge = try expect.optionalString("managedBrowserURL") { expected["managedBrowserURL"] = .string(edge) }
        try expect.finish()
        guard !expected.isEmpty else {
            throw fields.fail("\(fields.place): expect: name at least one of uiIdentity, uiAccount, dataIdentity, linkPolicy, clipboardRestriction, navigation, managedBrowserURL")
        }
        return .expectDecision(.webView, question: question, expected: expected)
    }

    private static func clipboard(_ fields: inout FieldReader) throws(FlowError) -> StepAction {
        var question = JSONObject()
        let options = sides.map { ($0, $0) }
        for (side, policyKey) in [("from", "fromPolicy"), ("to", "toPolicy")] {
            let name = try fields.choice(side, options, default: nil)
            question[side] = .string(name)
            if fields.has(policyKey) {
                guard name == "webView" else { throw fields.fail("\(fields.place): field '\(policyKey)' goes with \(side) \"webView\"") }
                question[policyKey] = .string(try fields.choice(policyKey, WebFields.cases(WebViewPolicy.self), default: nil).rawValue)
            }
        }
        guard let value = fields.value("expect") else { throw fields.fail("\(fields.place): field 'expect' is required") }
        var expect = try FieldReader(value, place: fields.place + ": expect", fail: fields.fail)
        var expected = JSONObject()
        if let allowed = try expect.optionalBool("allowed") { expected["allowed"] = .bool(allowed) }
        if let restriction = expect.value("restriction") {
            guard restriction == .null || ClipboardRestriction(rawValue: restriction.stringValue ?? "") != nil else {
                throw expect.fail("\(expect.place): field 'restriction' must be null or one of \(ClipboardRestriction.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            expected["restriction"] = restriction
        }
        let kinds = ["managed", "unmanaged", "managedApp", "unmanagedApp"].map { ($0, $0) }
        for key in ["from", "to"] where expect.has(key) { expected[key] = .string(try expect.choice(key, kinds, default: nil)) }
        if let text = try expect.optionalString("reasonContains") { expected["reasonContains"] = .string(text) }
        try expect.finish()
        guard expected["allowed"] != nil else { throw expect.fail("\(expect.place): field 'allowed' is required") }
        return .expectDecision(.clipboard, question: question, expected: expected)
    }
}
