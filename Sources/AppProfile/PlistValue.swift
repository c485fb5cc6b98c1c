import Foundation

/// One value of a property list, as a `Sendable` value type.
public enum PlistValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Data)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    /// The plist element name of the value's type, for messages (`string`, `true/false`, `array` …).
    public var typeName: String {
        switch self {
        case .string: "string"
        case .bool: "boolean"
        case .integer: "integer"
        case .real: "real"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    public var arrayValue: [PlistValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var dictionaryValue: [String: PlistValue]? {
        if case .dictionary(let value) = self { value } else { nil }
    }

    /// The strings of an array of strings; `nil` for anything else.
    public var stringArrayValue: [String]? {
        guard let array = arrayValue else { return nil }
        let strings = array.compactMap(\.stringValue)
        return strings.count == array.count ? strings : nil
    }

    /// An array of strings.
    public static func strings(_ values: [String]) -> PlistValue { .array(values.map(PlistValue.string)) }
}

extension PlistValue {
    /// Converts what `PropertyListSerialization` returns; `nil` for a type a plist cannot hold.
    init?(foundation object: Any) {
        switch object {
        case let string as String:
            self = .string(string)
        case let date as Date:
            self = .date(date)
        case let data as Data:
            self = .data(data)
        case let array as [Any]:
            var values: [PlistValue] = []
            for element in array {
                guard let value = PlistValue(foundation: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            var values: [String: PlistValue] = [:]
            for (key, element) in dictionary {
                guard let value = PlistValue(foundation: element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        case let number as NSNumber:
            // Booleans come as Bool (Linux) or CFBoolean (Darwin), both with the ObjC type "c".
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .real(number.doubleValue)
            default: self = .integer(number.intValue)
            }
        default:
            return nil
        }
    }

    /// The value as `PropertyListSerialization` writes it.
    var foundationObject: Any {
        switch self {
        case .string(let value): value
        case .bool(let value): value
        case .integer(let value): value
        case .real(let value): value
        case .date(let value): value
        case .data(let value): value
        case .array(let values): values.map(\.foundationObject)
        case .dictionary(let values): values.mapValues(\.foundationObject)
        }
    }
}
