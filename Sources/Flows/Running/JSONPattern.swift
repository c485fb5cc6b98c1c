import JSON

/// Partial matching of JSON: an object pattern matches when every member it names matches
/// (other members of the actual value are ignored); arrays match element by element with
/// the same length; numbers compare by value; everything else by equality.
public enum JSONPattern {
    /// Where and how `actual` differs from `pattern`; nil when it matches.
    public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
        /// Path inside the value, e.g. `payload.report.status.name`; empty for the value itself.
        public let path: String
        public let expected: String
        public let actual: String

        public var description: String {
            path.isEmpty ? "expected \(expected), got \(actual)" : "\(path): expected \(expected), got \(actual)"
        }
    }

    public static func mismatch(_ pattern: JSONValue, _ actual: JSONValue?, path: String = "") -> Mismatch? {
        guard let actual else { return Mismatch(path: path, expected: "\(pattern)", actual: "nothing") }
        switch (pattern, actual) {
        case (.object(let wanted), .object(let have)):
            for (key, value) in wanted {
                if let miss = mismatch(value, have[key], path: path.isEmpty ? key : "\(path).\(key)") { return miss }
            }
            return nil
        case (.array(let wanted), .array(let have)):
            guard wanted.count == have.count else { return Mismatch(path: path, expected: "\(pattern)", actual: "\(actual)") }
            for (index, pair) in zip(wanted, have).enumerated() {
                if let miss = mismatch(pair.0, pair.1, path: "\(path)[\(index)]") { return miss }
            }
            return nil
        case (.int, _), (.double, _):
            guard let left = pattern.doubleValue, let right = actual.doubleValue, left == right else {
                return Mismatch(path: path, expected: "\(pattern)", actual: "\(actual)")
            }
            return nil
        default:
            return pattern == actual ? nil : Mismatch(path: path, expected: "\(pattern)", actual: "\(actual)")
        }
    }

    public static func matches(_ pattern: JSONValue, _ actual: JSONValue?) -> Bool {
        mismatch(pattern, actual) == nil
    }
}
