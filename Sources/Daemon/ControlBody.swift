import ComplianceCore
import JSON
import Orchestrator

/// A JSON request body, read field by field: a missing or mistyped field, or a field the
/// route does not know, is a `bad_request` naming the field.
struct ControlBody {
    private let object: JSONObject
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

    /// `{"action": "signIn", "password"}` or `{"action": "cancel"}`.
    func user() throws(ControlError) -> InteractiveUser? {
        guard let value = object["user"], value != .null else { return nil }
        guard let user = value.objectValue else { throw .badRequest("\(route): field 'user' must be an object") }
        for key in user.keys where key != "action" && key != "password" {
            throw .badRequest("\(route): unknown field 'user.\(key)'; known fields: action, password")
        }
        switch user["action"]?.stringValue {
        case "signIn":
            guard let password = user["password"]?.stringValue else { throw .badRequest("\(route): user.password is required for action signIn") }
            return .signIn(password: password)
        case "cancel":
            return .cancel
        default:
            throw .badRequest("\(route): user.action must be \"signIn\" or \"cancel\"")
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
