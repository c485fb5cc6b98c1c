import JSON

/// The fields of the check steps (`expectAccount`, `expectData`, `expectEvents`,
/// `expectEnrollmentStatuses`, `expectRequests`).
enum CheckFields {
    /// Fields `expectAccount` may check, with what each holds.
    static let accountFields: [(String, String)] = [
        ("known", "boolean"), ("signedIn", "boolean"), ("managed", "boolean"), ("compliance", "status"),
        ("enrollment", "string"), ("lastEnrollmentStatus", "enrollment status"), ("remediation", "string"), ("wipe", "string"),
        ("dataFiles", "integer"),
    ]
    static let eventKeys: Set<String> = ["kind", "account", "payload"]
    static let requestKeys: Set<String> = ["method", "route", "path", "status", "grantType", "user", "fault"]

    static func action(_ name: String, _ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction {
        switch name {
        case "expectAccount":
            let account = try fields.string("account")
            var expected = JSONObject()
            for (key, kind) in accountFields {
                guard let value = fields.value(key) else { continue }
                expected[key] = try normalized(value, kind: kind, field: key, fail: fail)
            }
            guard !expected.isEmpty else { throw fail("expectAccount: name at least one of \(accountFields.map(\.0).joined(separator: ", "))") }
            return .expectAccount(account: account, fields: expected)
        case "expectData":
            let account = try fields.string("account")
            let present = try fields.strings("present") ?? []
            let absent = try fields.strings("absent") ?? []
            var contents: [(String, String)] = []
            for (file, text) in try fields.objectField("contents") ?? JSONObject() {
                guard let text = text.stringValue else { throw fail("expectData: field 'contents'.\(file) must be a string") }
                contents.append((file, text))
            }
            let encrypted = try fields.strings("encrypted") ?? []
            let plain = try fields.strings("plain") ?? []
            let owners = try ProtectionFields.owners(&fields, fail: fail)
            guard !present.isEmpty || !absent.isEmpty || !contents.isEmpty || !encrypted.isEmpty || !plain.isEmpty || !owners.isEmpty else {
                throw fail("expectData: give 'present', 'absent', 'contents', 'encrypted', 'plain' or 'owners'")
            }
            return .expectData(account: account, present: present, absent: absent, contents: contents, encrypted: encrypted, plain: plain, owners: owners)
        case "expectDataProtection":
            return try dataProtection(&fields, fail: fail)
        case "expectAppConfig":
            return try appConfig(&fields, fail: fail)
        case "expectApp":
            var expected = JSONObject()
            for key in ["registeredAccounts", "allowedAccounts"] {
                guard let value = fields.value(key) else { continue }
                guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                    if key == "allowedAccounts", value == .null { expected[key] = .null; continue }
                    throw fail("expectApp: '\(key)' must be an array of UPNs\(key == "allowedAccounts" ? " or null (anyone)" : "")")
                }
                // Compared as the daemon lists them: lowercased keys, sorted.
                expected[key] = .array(Set(list.compactMap { $0.stringValue?.lowercased() }).sorted().map { .string($0) })
            }
            for key in ["managedAccount", "restartOwed"] {
                guard let value = fields.value(key) else { continue }
                guard value == .null || value.stringValue != nil else { throw fail("expectApp: '\(key)' must be a UPN or null") }
                expected[key] = value.stringValue.map { .string($0.lowercased()) } ?? .null
            }
            guard !expected.isEmpty else { throw fail("expectApp: name at least one of registeredAccounts, allowedAccounts, managedAccount, restartOwed") }
            return .expectApp(expected: expected)
        case "expectSettings":
            var expected = JSONObject()
            for key in ["clientId", "redirectUri", "authorityPath"] {
                if let value = try fields.optionalString(key) { expected[key] = .string(value) }
            }
            if let overrides = fields.value("overrides") {
                guard let object = overrides.objectValue else { throw fail("expectSettings: 'overrides' must be an object (matched partially)") }
                for (name, value) in object {
                    guard ["aadAuthorityUriOverride", "aadClientIdOverride", "aadRedirectUriOverride"].contains(name) else {
                        throw fail("expectSettings: 'overrides' has no '\(name)' (aadAuthorityUriOverride, aadClientIdOverride, aadRedirectUriOverride)")
                    }
                    guard value == .null || value.stringValue != nil else { throw fail("expectSettings: overrides.\(name) must be a string or null") }
                }
                expected["overrides"] = overrides
            }
            guard !expected.isEmpty else { throw fail("expectSettings: name at least one of clientId, redirectUri, authorityPath, overrides") }
            return .expectSettings(expected: expected)
        case "expectIdentity":
            var expected = JSONObject()
            for key in ["processIdentity", "uiIdentity", "effectiveUIIdentity"] {
                guard let value = fields.value(key) else { continue }
                guard value.stringValue != nil || (value == .null && key != "effectiveUIIdentity") else {
                    throw fail("expectIdentity: '\(key)' must be a UPN or \"\" (no user)\(key == "effectiveUIIdentity" ? "" : ", or null (unset)")")
                }
                expected[key] = value.stringValue.map { .string($0.lowercased()) } ?? .null
            }
            guard !expected.isEmpty else { throw fail("expectIdentity: name at least one of processIdentity, uiIdentity, effectiveUIIdentity") }
            return .expectIdentity(expected: expected)
        case "expectEvents":
            let (events, absent, counted) = try patternLists(
                &fields, step: "expectEvents", list: "events", keys: eventKeys, required: "kind", what: "event", fail: fail)
            return .expectEvents(events: events, absent: absent, counts: counted)
        case "expectEnrollmentStatuses":
            let account = try fields.string("account")
            guard let values = try fields.array("codes") else { throw fail("expectEnrollmentStatuses: field 'codes' is required (statuses in order)") }
            var codes: [Int64] = []
            for value in values {
                guard let code = StatusNames.enrollment(value) else { throw fail("expectEnrollmentStatuses: \(value) is not an enrollment status (e.g. 100 or \"NewPoliciesReceived\")") }
                codes.append(Int64(code))
            }
            return .expectEnrollmentStatuses(account: account, codes: codes)
        default:  // expectRequests
            let (requests, absent, counted) = try patternLists(
                &fields, step: "expectRequests", list: "requests", keys: requestKeys, required: nil, what: "request", fail: fail)
            return .expectRequests(requests: requests, absent: absent, counts: counted)
        }
    }

    /// A checked value in the form the runner compares: statuses become their codes.
    static func normalized(_ value: JSONValue, kind: String, field: String, fail: (String) -> FlowError) throws(FlowError) -> JSONValue {
        switch kind {
        case "status":
            if value == .null { return .null }
            guard let code = StatusNames.compliance(value) else { throw fail("expectAccount: field '\(field)': \(value) is not a compliance status (\(StatusNames.complianceNames), or null)") }
            return .int(Int64(code))
        case "enrollment status":
            if value == .null { return .null }
            guard let code = StatusNames.enrollment(value) else { throw fail("expectAccount: field '\(field)': \(value) is not an enrollment status") }
            return .int(Int64(code))
        case "boolean":
            guard value.boolValue != nil else { throw fail("expectAccount: field '\(field)' must be true or false, found \(value.kindName)") }
            return value
        case "integer":
            guard case .int = value else { throw fail("expectAccount: field '\(field)' must be an integer, found \(value.kindName)") }
            return value
        default:
            guard value.stringValue != nil else { throw fail("expectAccount: field '\(field)' must be a string, found \(value.kindName)") }
            return value
        }
    }

    /// The pattern lists of `expectEvents` and `expectRequests`: `list` (in order), `absent`
    /// and `counts`; `list` or `counts` is required, and every pattern is checked.
    private static func patternLists(
        _ fields: inout FieldReader, step: String, list: String, keys: Set<String>, required: String?, what: String,
        fail: (String) -> FlowError
    ) throws(FlowError) -> (inOrder: [JSONValue], absent: [JSONValue], counts: [CountedPattern]) {
        let inOrder = try fields.array(list)
        let absent = try fields.array("absent") ?? []
        let counts = try fields.array("counts")
        guard inOrder != nil || counts != nil else {
            throw fail("\(step): field '\(list)' (patterns in order) or 'counts' (patterns with a 'count') is required")
        }
        for (position, pattern) in ((inOrder ?? []) + absent).enumerated() {
            try check(pattern, keys: keys, required: required, what: "\(what) pattern \(position + 1)", fail: fail)
        }
        let counted = try countedPatterns(counts ?? [], keys: keys, required: required, what: what, fail: fail)
        return (inOrder ?? [], absent, counted)
    }

    /// The `counts` entries: each a pattern with a `count` (an integer, 0 or more).
    static func countedPatterns(
        _ entries: [JSONValue], keys: Set<String>, required: String?, what: String, fail: (String) -> FlowError
    ) throws(FlowError) -> [CountedPattern] {
        var result: [CountedPattern] = []
        for (position, entry) in entries.enumerated() {
            let place = "counted \(what) pattern \(position + 1)"
            guard var object = entry.objectValue else { throw fail("\(place) must be an object, found \(entry.kindName)") }
            guard let count = object["count"] else { throw fail("\(place): field 'count' (how many must match) is required") }
            guard let number = count.intValue, number >= 0, number <= 1_000_000 else {
                throw fail("\(place): field 'count' must be an integer from 0 to 1000000, found \(count)")
            }
            object["count"] = nil
            try check(.object(object), keys: keys, required: required, what: place, fail: fail)
            result.append(CountedPattern(pattern: .object(object), count: Int(number)))
        }
        return result
    }

    static func check(_ pattern: JSONValue, keys: Set<String>, required: String?, what: String, fail: (String) -> FlowError) throws(FlowError) {
        guard let object = pattern.objectValue else { throw fail("\(what) must be an object, found \(pattern.kindName)") }
        for key in object.keys where !keys.contains(key) {
            throw fail("\(what): unknown field '\(key)' (known: \(keys.sorted().joined(separator: ", ")))")
        }
        if let required, object[required]?.stringValue == nil { throw fail("\(what): field '\(required)' (a string) is required") }
        if keys == eventKeys, let kind = object["kind"]?.stringValue, !KnownNames.eventKinds.contains(kind) {
            throw fail("\(what): 'kind' \"\(kind)\" is not an event kind the daemon writes (\(KnownNames.eventKinds.sorted().joined(separator: ", ")))")
        }
        if let route = object["route"] {
            guard let name = route.stringValue, KnownNames.requestRoutes.contains(name) else {
                throw fail("\(what): 'route' \(route) is not a route of the mock's request log (\(KnownNames.requestRoutes.sorted().joined(separator: ", ")))")
            }
        }
    }
}
