import JSON

/// Reads the fields of one JSON object strictly: typed getters name the field and what was
/// found, and ``finish()`` refuses any field nobody asked for.
struct FieldReader {
    let object: JSONObject
    /// Where this object is, for messages ("step 3 (signIn)", "the flow", "expect").
    let place: String
    private(set) var known: [String] = []
    let fail: (String) -> FlowError

    init(_ value: JSONValue, place: String, fail: @escaping (String) -> FlowError) throws(FlowError) {
        guard case .object(let object) = value else { throw fail("\(place) must be a JSON object, found \(value.kindName)") }
        self.object = object
        self.place = place
        self.fail = fail
    }

    mutating func value(_ key: String) -> JSONValue? {
        known.append(key)
        return object[key]
    }

    mutating func has(_ key: String) -> Bool {
        object[key] != nil
    }

    mutating func string(_ key: String) throws(FlowError) -> String {
        guard let value = try optionalString(key) else { throw missing(key, otherwise: fail("\(place): field '\(key)' is required")) }
        return value
    }

    mutating func optionalString(_ key: String) throws(FlowError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw mistyped(key, "a string", value) }
        return text
    }

    /// A string, or nil when the field is absent or null.
    mutating func nullableString(_ key: String) throws(FlowError) -> String? {
        guard let value = value(key), value != .null else { return nil }
        guard case .string(let text) = value else { throw mistyped(key, "a string or null", value) }
        return text
    }

    mutating func bool(_ key: String, default fallback: Bool) throws(FlowError) -> Bool {
        try optionalBool(key) ?? fallback
    }

    mutating func optionalBool(_ key: String) throws(FlowError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw mistyped(key, "true or false", value) }
        return flag
    }

    mutating func int(_ key: String, default fallback: Int64, range: ClosedRange<Int64>) throws(FlowError) -> Int64 {
        guard let value = value(key) else { return fallback }
        guard let number = value.intValue, case .int = value else { throw mistyped(key, "an integer", value) }
        guard range.contains(number) else { throw fail("\(place): field '\(key)' must be between \(range.lowerBound) and \(range.upperBound), found \(number)") }
        return number
    }

    mutating func strings(_ key: String) throws(FlowError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw mistyped(key, "an array of strings", value) }
        var result: [String] = []
        for (position, item) in items.enumerated() {
            guard case .string(let text) = item else { throw fail("\(place): field '\(key)'[\(position)] must be a string, found \(item.kindName)") }
            result.append(text)
        }
        return result
    }

    mutating func array(_ key: String) throws(FlowError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw mistyped(key, "an array", value) }
        return items
    }

    mutating func objectField(_ key: String) throws(FlowError) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw mistyped(key, "an object", value) }
        return object
    }

    /// Refuses fields nobody read, naming the ones this place knows.
    func finish() throws(FlowError) {
        for key in object.keys where !known.contains(key) {
            throw fail("\(place): unknown field '\(key)' (\(ClosestName.hint(key, among: known))known: \(known.joined(separator: ", ")))")
        }
    }

    func mistyped(_ key: String, _ wanted: String, _ found: JSONValue) -> FlowError {
        fail("\(place): field '\(key)' must be \(wanted), found \(found.kindName)")
    }
}
