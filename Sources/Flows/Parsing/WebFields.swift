import AppProfile
import ComplianceCore
import JSON

/// The fields of the web-content checks (`expectWebView`, `expectAppBound`, `expectAuthBrowser`;
/// flows/README.md, "Web content checks"). Nested objects (navigations, events, `expect`) are
/// read as strictly as steps: an unknown field is named with where it is.
enum WebFields {
    static let names = ["expectWebView", "expectAppBound", "expectAuthBrowser"]

    /// The UI identity's account when a step names none.
    static let defaultAccount = "user@contoso.com"

    static func action(_ name: String, _ fields: inout FieldReader) throws(FlowError) -> StepAction {
        switch name {
        case "expectWebView": .web(.webView(try webView(&fields)))
        case "expectAppBound": .web(.appBound(try AppBoundFields.check(&fields)))
        default: .web(.authBrowser(try AuthBrowserFields.check(&fields)))
        }
    }

    static func webView(_ fields: inout FieldReader) throws(FlowError) -> WebViewCheck {
        let view = try fields.optionalString("view") ?? "web view"
        let policy = try fields.choice("policy", cases(WebViewPolicy.self), default: .unset)
        let account = try fields.optionalString("account")
        let uiIdentity = try fields.choice("uiIdentity", WebNames.uiIdentities(account: account ?? defaultAccount), default: nil)
        if case .none = uiIdentity, account != nil { throw fields.fail("\(fields.place): field 'account' goes with uiIdentity managed or unmanaged, not none") }
        var rule: ExternalURLRule?
        if let value = fields.value("delegate") { rule = try delegate(value, place: fields.place + ": delegate", fail: fields.fail) }
        let linkPolicy = try fields.choice("linkPolicy", cases(WebLinkPolicy.self), default: .anyApp)
        var navigations: [WebViewCheck.Navigation] = []
        for (offset, value) in (try fields.array("navigations") ?? []).enumerated() {
            var item = try FieldReader(value, place: "\(fields.place): navigation \(offset + 1)", fail: fields.fail)
            let url = try item.url("url")
            let frame = try item.choice("frame", WebNames.frames, default: .top)
            let expected = try item.choice("expect", WebNames.navigationDecisionNames.map { ($0, $0) }, default: nil)
            let browserURL = try item.optionalString("browserURL")
            if browserURL != nil, expected != "openInManagedBrowser" { throw item.fail("\(item.place): 'browserURL' goes with expect openInManagedBrowser") }
            try item.finish()
            navigations.append(.init(url: url, frame: frame, expected: expected, browserURL: browserURL))
        }
        var expectedIdentity: String?
        if let value = fields.value("expect") {
            var expect = try FieldReader(value, place: fields.place + ": expect", fail: fields.fail)
            expectedIdentity = try expect.choice("dataIdentity", [("managed", "managed"), ("unmanaged", "unmanaged")], default: nil)
            try expect.finish()
        }
        guard expectedIdentity != nil || !navigations.isEmpty else {
            throw fields.fail("\(fields.place): give 'expect' ({\"dataIdentity\": …}) or 'navigations'")
        }
        return WebViewCheck(
            view: view, policy: policy, uiIdentity: uiIdentity, rule: rule, linkPolicy: linkPolicy, navigations: navigations,
            expectedDataIdentity: expectedIdentity)
    }

    /// `{"internalURLs": […], "internalPrefixes": […], "internalHosts": […]}`: the delegate's
    /// `isExternalURL:` answers NO for these and YES for every other URL.
    static func delegate(_ value: JSONValue, place: String, fail: @escaping (String) -> FlowError) throws(FlowError) -> ExternalURLRule {
        var reader = try FieldReader(value, place: place, fail: fail)
        var matches: [ExternalURLRule.Match] = []
        for key in ["internalURLs", "internalPrefixes"] {
            for (position, text) in (try reader.strings(key) ?? []).enumerated() {
                guard WebURL(text) != nil else { throw fail("\(place): field '\(key)'[\(position)]: '\(text)' is not a URL") }
                matches.append(key == "internalURLs" ? .url(text) : .prefix(text))
            }
        }
        matches += (try reader.strings("internalHosts") ?? []).map { .host($0) }
        try reader.finish()
        return ExternalURLRule(internal: matches)
    }

    /// The flow's app profile when a step is a web check, read now: a profile that cannot be read
    /// stops the flow before anything runs.
    static func appProfile(for steps: [FlowStep], app: String, entitlements: String?, file: String) throws(FlowError) -> AppProfile? {
        guard steps.contains(where: \.isWebCheck) else { return nil }
        do {
            return try AppProfile.load(infoPlist: app, entitlements: entitlements)
        } catch {
            throw FlowError(file: file, step: nil, reason: "the app profile of the web checks: \(error)")
        }
    }

    /// Every case of a string enum, by its raw value.
    static func cases<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> [(String, T)] where T.RawValue == String {
        T.allCases.map { ($0.rawValue, $0) }
    }
}

extension FieldReader {
    /// A string field that must be one of `options`' names; `fallback` when absent (nil: required).
    mutating func choice<T>(_ key: String, _ options: [(String, T)], default fallback: T?) throws(FlowError) -> T {
        let list = options.map(\.0).joined(separator: ", ")
        guard let text = try optionalString(key) else {
            if let fallback { return fallback }
            throw fail("\(place): field '\(key)' is required (\(list))")
        }
        guard let value = options.first(where: { $0.0 == text })?.1 else {
            throw fail("\(place): field '\(key)' must be one of \(list), found '\(text)'")
        }
        return value
    }

    /// An optional string field that must be one of `options`' names.
    mutating func optionalChoice<T>(_ key: String, _ options: [(String, T)]) throws(FlowError) -> T? {
        guard has(key) else {
            _ = value(key)
            return nil
        }
        return try choice(key, options, default: nil)
    }

    /// A required URL field.
    mutating func url(_ key: String) throws(FlowError) -> WebURL {
        let text = try string(key)
        guard let url = WebURL(text) else { throw fail("\(place): field '\(key)': '\(text)' is not a URL (scheme:…)") }
        return url
    }
}
