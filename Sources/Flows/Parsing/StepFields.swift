import ControlClient
import JSON

/// The fields of each step name (flows/README.md has the table).
enum StepFields {
    static func action(_ name: String, _ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction {
        switch name {
        case "signIn":
            // No account (absent or null): the app's managed user.
            let account = try fields.nullableString("account")
            let user = try user(&fields, fail: fail)
            let silent = try fields.bool("silent", default: false)
            try asks(user, silent: silent, how: "leave out \"silent\": true", fail: fail)
            return .signIn(account: account, user: user, silent: silent, scopes: try fields.strings("scopes"))
        case "token":
            let account = try fields.string("account")
            guard let scopes = try fields.strings("scopes"), !scopes.isEmpty else {
                throw fields.missing("scopes", otherwise: fail("token: field 'scopes' is required (at least one scope)"))
            }
            let user = try user(&fields, fail: fail)
            let interactive = try fields.bool("interactive", default: false)
            try asks(user, silent: !interactive, how: "add \"interactive\": true", fail: fail)
            return .token(account: account, scopes: scopes, user: user, interactive: interactive, remediate: try fields.bool("remediate", default: true))
        case "remediate":
            let account = try fields.string("account")
            let user = try user(&fields, fail: fail)
            let silent = try fields.bool("silent", default: false)
            try asks(user, silent: silent, how: "leave out \"silent\": true", fail: fail)
            return .remediate(account: account, user: user, silent: silent)
        case "deregister":
            return .deregister(account: try fields.string("account"), wipe: try fields.bool("wipe", default: false))
        case "putData":
            return .putData(account: try fields.string("account"), name: try fields.string("name"), text: try fields.string("text"))
        case "removeData":
            return .removeData(account: try fields.string("account"), name: try fields.string("name"))
        case "readData":
            return .readData(account: try fields.string("account"), name: try fields.string("name"))
        case "setUIIdentity":
            let identity = try fields.string("identity")
            let launch = try fields.optionalString("conditionalLaunch") ?? "complete"
            guard ["complete", "cancel"].contains(launch) else {
                throw fail("setUIIdentity: field 'conditionalLaunch' must be \"complete\" or \"cancel\", found \"\(launch)\"")
            }
            return .setUIIdentity(identity: identity, cancel: launch == "cancel")
        case "setProcessIdentity":
            return .setProcessIdentity(identity: try fields.string("identity"))
        case "sdkEnrolls":
            return .sdkEnrolls(account: try fields.string("account"))
        case "overrideSettings":
            var changes = JSONObject()
            for name in ["aadAuthorityUriOverride", "aadClientIdOverride", "aadRedirectUriOverride"] {
                guard let value = fields.value(name) else { continue }
                guard value == .null || value.stringValue != nil else { throw fail("overrideSettings: field '\(name)' must be a string (set) or null (clear)") }
                changes[name] = value
            }
            guard !changes.isEmpty else { throw fail("overrideSettings: name at least one of aadAuthorityUriOverride, aadClientIdOverride, aadRedirectUriOverride") }
            return .overrideSettings(changes: changes)
        case "advanceClock":
            let text = try fields.string("by")
            do {
                return .advanceClock(seconds: try DurationText.seconds(text), text: text)
            } catch {
                throw fail("advanceClock: field 'by': \(error)")
            }
        case "appRestarted":
            return .appRestarted
        case "restartDaemon":
            return .restartDaemon(kill: try fields.bool("kill", default: true))
        case "crashAfter":
            let point = try fields.string("point")
            guard point.contains(":") else { throw fail("crashAfter: field 'point' must be MACHINE:STATE, e.g. remediation:awaitingPolicy") }
            return .crashAfter(point: point, occurrence: Int(try fields.int("occurrence", default: 1, range: 1...1000)))
        case "failStorage":
            let operation = try fields.string("operation")
            guard ["commit", "tokens", "vault", "vaultWrite", "cacheRead"].contains(operation) else {
                throw fail("failStorage: field 'operation' must be \"commit\", \"tokens\", \"vault\", \"vaultWrite\" or \"cacheRead\", found \"\(operation)\"")
            }
            return .failStorage(operation: operation, count: Int(try fields.int("count", default: 1, range: 1...1000)))
        case "expectAccount", "expectData", "expectEvents", "expectEnrollmentStatuses", "expectRequests", "expectDataProtection", "expectAppConfig", "expectApp",
             "expectIdentity", "expectSettings":
            return try CheckFields.action(name, &fields, fail: fail)
        case _ where ProtectionFields.names.contains(name):
            return try ProtectionFields.action(name, &fields, fail: fail)
        case _ where DecisionFields.names.contains(name):
            return try DecisionFields.action(name, &fields)
        case _ where WebFields.names.contains(name):
            return try WebFields.action(name, &fields)
        default:
            return try AdminFields.action(name, &fields, fail: fail)
        }
    }

    /// `password` (signs in; with `"grant": "password"` by the password grant instead of the
    /// sign-in page) or `cancel: true`; neither: nobody answers the sign-in page.
    /// A silent request carries no credentials (the daemon refuses one that does): a step
    /// with a password, silent, is invalid when the flow is read, not refused when it runs.
    static func asks(_ user: StepAction.User, silent: Bool, how: String, fail: (String) -> FlowError) throws(FlowError) {
        guard silent else { return }
        switch user {
        case .password, .passwordGrant:
            throw fail("a silent request carries no credentials, so its 'password' would not be checked: \(how) to send it to the issuer")
        default:
            return
        }
    }

    static func user(_ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction.User {
        let password = try fields.optionalString("password")
        let cancel = try fields.bool("cancel", default: false)
        let grant = try fields.optionalString("grant")
        if let grant {
            guard grant == "password" else { throw fail("\(fields.place): field 'grant' must be \"password\", found \"\(grant)\"") }
            guard let password, !cancel else { throw fail("\(fields.place): \"grant\": \"password\" needs 'password' (and no 'cancel')") }
            return .passwordGrant(password)
        }
        switch (password, cancel) {
        case (.some, true): throw fail("\(fields.place): give 'password' or 'cancel', not both")
        case (.some(let password), false): return .password(password)
        case (nil, true): return .cancel
        case (nil, false): return .none
        }
    }
}

/// Admin actions on the mock: each is a call of its `/_admin` API (mocks/README.md).
enum AdminFields {
    static func action(_ name: String, _ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction {
        func user(_ suffix: String) throws(FlowError) -> (String, String) {
            let account = try fields.string("account")
            return (account, "users/\(ControlClient.pathSegment(account))/\(suffix)")
        }
        switch name {
        case "targetCA":
            let (account, path) = try user("ca")
            let targeted = try fields.bool("targeted", default: true)
            return .admin(method: "POST", path: path, body: ["targeted": .bool(targeted)], summary: "targetCA \(account) \(targeted)")
        case "assignPolicy":
            let (account, path) = try user("mam-policy")
            let assigned = try fields.bool("assigned", default: true)
            return .admin(method: "POST", path: path, body: ["assigned": .bool(assigned)], summary: "assignPolicy \(account) \(assigned)")
        case "queueWipe":
            let (account, path) = try user("wipe")
            return .admin(method: "POST", path: path, body: [:], summary: "queueWipe \(account)")
        case "resetCompliance":
            let (account, path) = try user("compliance/reset")
            return .admin(method: "POST", path: path, body: [:], summary: "resetCompliance \(account)")
        case "revokeRefreshTokens":
            let (account, path) = try user("revoke-refresh-tokens")
            return .admin(method: "POST", path: path, body: nil, summary: "revokeRefreshTokens \(account)")
        case "setAllowedAccounts":
            guard let accounts = fields.value("accounts") else {
                throw fields.missing("accounts", otherwise: fail("setAllowedAccounts: field 'accounts' is required (an array of UPNs, or null for any)"))
            }
            guard accounts == .null || accounts.arrayValue?.allSatisfy({ $0.stringValue != nil }) == true else {
                throw fail("setAllowedAccounts: field 'accounts' must be an array of UPNs or null, found \(accounts.kindName)")
            }
            return .admin(method: "PUT", path: "policy/allowed-accounts", body: ["allowedAccounts": accounts], summary: "setAllowedAccounts \(accounts)")
        case "changePolicy":
            guard let settings = try fields.objectField("settings"), !settings.isEmpty else {
                throw fields.missing("settings", otherwise: fail("changePolicy: field 'settings' is required (an object of policy settings)"))
            }
            return .admin(method: "PATCH", path: "policy", body: .object(settings), summary: "changePolicy \(JSONValue.object(settings))")
        case "injectFault":
            return try fault(&fields, fail: fail)
        case "clearFaults":
            return .admin(method: "DELETE", path: "faults", body: nil, summary: "clearFaults")
        default:  // "admin"
            let method = try fields.string("method").uppercased()
            guard ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(method) else { throw fail("admin: field 'method' must be GET, POST, PUT, PATCH or DELETE") }
            let path = try fields.string("path")
            guard !path.contains(".."), !path.hasPrefix("/") else { throw fail("admin: field 'path' is relative to /_admin/ (e.g. \"users/alice@contoso.com/ca\")") }
            return .admin(method: method, path: path, body: fields.value("body"), summary: "admin \(method) \(path)")
        }
    }

    static func fault(_ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction {
        let route = try fields.string("route")
        var body: JSONObject = ["route": .string(route), "count": .int(try fields.int("count", default: 1, range: 1...10_000))]
        let status = try fields.int("status", default: 0, range: 0...599)
        if status != 0 {
            guard status >= 100 else { throw fail("injectFault: field 'status' must be an HTTP status (100...599)") }
            body["status"] = .int(status)
        }
        if let action = try fields.optionalString("action") {
            let actions = ["reset", "close", "malformed", "empty", "truncated", "wrongContentType", "oversized"]
            guard actions.contains(action) else { throw fail("injectFault: field 'action' must be one of \(actions.joined(separator: ", ")), found '\(action)'") }
            body["action"] = .string(action)
        }
        let delay = try fields.int("delayMs", default: 0, range: 0...600_000)
        if delay > 0 { body["delayMs"] = .int(delay) }
        let retryAfter = try fields.int("retryAfter", default: -1, range: -1...86_400)
        if retryAfter >= 0 { body["retryAfter"] = .int(retryAfter) }
        let bytes = try fields.int("bytes", default: 0, range: 0...(64 << 20))
        if bytes > 0 { body["bytes"] = .int(bytes) }
        guard body["status"] != nil || body["action"] != nil || body["delayMs"] != nil else {
            throw fail("injectFault: give at least one of 'status', 'action' or 'delayMs'")
        }
        return .admin(method: "POST", path: "faults", body: .object(body), summary: "injectFault \(route) \(JSONValue.object(body))")
    }
}
