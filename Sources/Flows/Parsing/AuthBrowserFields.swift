import ComplianceCore
import JSON

/// `expectAuthBrowser`: `os`, `version`, `webviewType`, `appInitiated`, and `expect` (`webView`,
/// `browser`, `sharesCookies`, `sso`, `findings`, `error`).
enum AuthBrowserFields {
    static func check(_ fields: inout FieldReader) throws(FlowError) -> AuthBrowserCheck {
        let os = try fields.string("os")
        let version = try fields.string("version")
        guard let platform = WebNames.platform(os: os, version: version) else {
            throw fields.fail("\(fields.place): 'os' must be iOS or macOS and 'version' a version such as \"12.4\", found '\(os)' '\(version)'")
        }
        var type = MSALWebviewType.default
        if let text = try fields.optionalString("webviewType") {
            guard let named = WebNames.webviewType(text) else {
                throw fields.fail("\(fields.place): field 'webviewType' must be one of \(WebNames.webviewTypeNames), found '\(text)'")
            }
            type = named
        }
        let appInitiated = try fields.bool("appInitiated", default: false)
        guard let value = fields.value("expect") else { throw fields.fail("\(fields.place): field 'expect' is required (what MSAL and Intune decide)") }
        var expect = try FieldReader(value, place: fields.place + ": expect", fail: fields.fail)
        var expected = AuthBrowserCheck.Expected()
        expected.webView = try expect.optionalChoice("webView", WebFields.cases(AuthWebView.self))
        expected.browser = try expect.optionalChoice("browser", [("system", .system), ("inApp", .inApp)])
        expected.sharesCookies = try expect.optionalBool("sharesCookies")
        expected.sso = try expect.optionalChoice("sso", [("withSafariInstances", .withSafariInstances), ("needsTokenSharing", .needsTokenSharing)])
        if let findings = try expect.strings("findings") {
            for name in findings where !WebNames.findingNames.contains(name) {
                throw expect.fail("\(expect.place): field 'findings': '\(name)' is not a finding (\(WebNames.findingNames.joined(separator: ", ")))")
            }
            expected.findings = findings
        }
        expected.error = try expect.optionalChoice("error", [("webviewTypeUnavailable", "webviewTypeUnavailable")])
        try expect.finish()
        guard !expect.object.isEmpty else {
            throw expect.fail("\(expect.place): name at least one of \(expect.known.joined(separator: ", "))")
        }
        if expected.error != nil, expected.webView != nil || expected.browser != nil || expected.sharesCookies != nil || expected.sso != nil || expected.findings != nil {
            throw expect.fail("\(expect.place): with 'error' MSAL fails the request: expect nothing else")
        }
        return AuthBrowserCheck(platform: platform, webviewType: type, appInitiated: appInitiated, expected: expected)
    }
}
