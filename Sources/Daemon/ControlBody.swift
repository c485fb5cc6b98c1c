import ComplianceCore
import JSON
import Orchestrator

/// A JSON request body, read field by field: a missing or mistyped field, or a field the
/// route does not know, is a `bad_request` naming the field.
struct ControlBody {
    let object: JSONObject
    private let route: String

    /// Parses `bytes` (empty = `{}`) as a JSON object whose members are all in `known`.
    init(_ bytes: [UInt8], route: String, known: Set<String>) throws(ControlError) {
        self.route = route
        if bytes.isEmpty {
            object = JSONObject()
            return
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, limits: JSONLimits(maxBytes: ControlLimits.maxJSONBytes, maxDepth: 16))
        } catch {
            throw .badRequest("\(route): the body is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw .badRequest("\(route): the body must be a JSON object, got \(value.kindName)")
        }
        for key in object.keys where !known.contains(key) {
            throw .badRequest("\(route): unknown field '\(key)'; known fields: \(known.sorted().joined(separator: ", "))")
        }
        self.object = object
    }

    func string(_ name: String) throws(ControlError) -> String {
        guard let value = object[name] else { throw .badRequest("\(route): field '\(name)' is required") }
        guard let text = value.stringValue else { throw .badRequest("\(route): field '\(name)' must be a string, got \(value.kindName)") }
        return text
    }

    /// The string field, or nil when it is absent or null.
    func optionalString(_ name: String) throws(ControlError) -> String? {
        guard let value = object[name], value != .null else { return nil }
        return try string(name)
    }

    /// One of `choices` (absent or null: `fallback`); anything else is an error listing them.
    func choice(_ name: String, _ choices: [String], default fallback: String) throws(ControlError) -> String {
        guard let given = try optionalString(name) else { return fallback }
        guard choices.contains(given) else {
            throw .badRequest("\(route): field '\(name)' must be \(choices.map { "\"\($0)\"" }.joined(separator: " or ")), got '\(given)'")
        }
        return given
    }

    func bool(_ name: String, default fallback: Bool) throws(ControlError) -> Bool {
        guard let value = object[name], value != .null else { return fallback }
        guard let flag = value.boolValue else { throw .badRequest("\(route): field '\(name)' must be true or false, got \(value.kindName)") }
        return flag
    }

    func int(_ name: String) throws(ControlError) -> Int64 {
        guard let value = object[name] else { throw .badRequest("\(route): field '\(name)' is required") }
        guard let number = value.intValue else { throw .badRequest("\(route): field '\(name)' must be an integer, got \(value.kindName)") }
        return number
    }

    func optionalInt(_ name: String) throws(ControlError) -> Int64? {
        guard object[name] != nil, object[name] != .null else { return nil }
        return try int(name)
    }

    func scopes(_ name: String = "scopes") throws(ControlError) -> [String]? {
        guard let value = object[name], value != .null else { return nil }
        guard let array = value.arrayValue else { throw .badRequest("\(route): field '\(name)' must be an array of strings") }
        var scopes: [String] = []
        for (index, element) in array.enumerated() {
            guard let scope = element.stringValue, !scope.isEmpty, !scope.contains(where: { $0 == " " || $0.asciiValue.map { $0 < 0x20 } == true }) else {
                throw .badRequest("\(route): \(name)[\(index)] must be a non-empty scope without spaces")
            }
            scopes.append(scope)
        }
        return scopes
    }

    /// `{"action": "signIn", "password"}`, `{"action": "cancel"}`, `{"action": "passwordGrant",
    /// "password"}`, `{"action": "browser", "interaction", "timeoutSeconds"?}` or
    /// `{"action": "deviceCode", "interaction"}` (an interaction from `POST /v1/interactions`,
    /// of that kind, not used before).
    func user(_ interactions: InteractionSessions) throws(ControlError) -> InteractiveUser? {
        guard let value = object["user"], value != .null else { return nil }
        guard let user = value.objectValue else { throw .badRequest("\(route): field 'user' must be an object") }
        let known = ["action", "password", "interaction", "timeoutSeconds"]
        for key in user.keys where !known.contains(key) {
            throw .badRequest("\(route): unknown field 'user.\(key)'; known fields: \(known.joined(separator: ", "))")
        }
        func password(_ action: String) throws(ControlError) -> String {
            guard let password = user["password"]?.stringValue else { throw .badRequest("\(route): user.password is required for action \(action)") }
            return password
        }
        func session(_ kind: InteractionSession.Kind) throws(ControlError) -> InteractionSession {
            guard let id = user["interaction"]?.stringValue else {
                throw .badRequest("\(route): user.interaction (from POST /v1/interactions) is required for action \(kind.rawValue)")
            }
            guard let session = interactions.session(id) else { throw .notFound("\(route): no open interaction '\(id)'") }
            guard session.kind == kind else { throw .badRequest("\(route): interaction '\(id)' is a \(session.kind.rawValue) interaction, not \(kind.rawValue)") }
            guard session.claim() else { throw ControlError(.conflict, "conflict", "\(route): interaction '\(id)' was already used or cancelled") }
            return session
        }
        switch user["action"]?.stringValue {
        case "signIn":
            return .signIn(password: try password("signIn"))
        case "cancel":
            return .cancel
        case "passwordGrant":
            return .passwordGrant(password: try password("passwordGrant"))
        case "browser":
            var timeout = InteractiveUser.browserTimeout
            if let value = user["timeoutSeconds"], value != .null {
                guard let seconds = value.intValue, (1...3600).contains(seconds) else {
                    throw .badRequest("\(route): user.timeoutSeconds must be an integer in 1...3600")
                }
                timeout = .seconds(seconds)
            }
            return .browser(try session(.browser), timeout: timeout)
        case "deviceCode":
            return .deviceCode(try session(.deviceCode))
        default:
            throw .badRequest("\(route): user.action must be one of signIn, cancel, passwordGrant, browser, deviceCode")
        }
    }
}

/// Request size limits of the control API.
public enum ControlLimits {
    /// JSON request bodies.
    public static let maxJSONBytes = 64 << 10
    /// Vault file uploads.
    public static let maxDataBytes = 16 << 20
}
