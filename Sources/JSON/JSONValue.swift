/// A JSON document as a Swift value.
///
/// Integers keep their exact 64-bit value (no rounding through `Double`), objects keep the
/// order of their keys, and strings may contain NUL. Parse wire bytes with
/// ``JSONValue/parse(_:limits:)`` and produce them with ``JSONValue/encoded(sortedKeys:)``;
/// both go through jansson.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent, in the range of `Int64`.
    case int(Int64)
    /// Any other number. Non-finite values are encoded as `null` (JSON has no NaN or infinity).
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Typed accessors

extension JSONValue {
    /// The member `key` when this is an object and has it; `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and the index is in range; `nil` otherwise.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer value; a `.double` with an exact integral value in range also qualifies.
    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The numeric value of an `.int` or `.double`.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// A short name of the value's kind, for error messages ("object", "string", …).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Keys keep the order written; a repeated key keeps its first position and last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { encodedString() }
}
