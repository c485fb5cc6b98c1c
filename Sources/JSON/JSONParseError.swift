/// Why a JSON text was refused, and where.
///
/// `line` and `column` are 1-based (column counts Unicode scalars, as jansson does);
/// `offset` is the byte offset. Limits refused before parsing report line 0.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    /// The kind of problem, comparable with the static constants (`error.code == .duplicateKey`).
    public struct Code: Sendable, Hashable, CustomStringConvertible, Codable {
        private enum Base: String, Sendable, Hashable, Codable {
            case syntax, invalidUTF8, duplicateKey, nulInKey, numberOutOfRange
            case prematureEnd, tooLarge, tooDeep, empty
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Not JSON grammar (unexpected token, missing comma, stray text after the value).
        public static let syntax = Code(.syntax)
        /// Bytes that are not well-formed UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// The same key twice in one object.
        public static let duplicateKey = Code(.duplicateKey)
        /// `\u0000` inside an object key.
        public static let nulInKey = Code(.nulInKey)
        /// An integer outside the range of `Int64`, or a real that overflows.
        public static let numberOutOfRange = Code(.numberOutOfRange)
        /// The text ended inside a value.
        public static let prematureEnd = Code(.prematureEnd)
        /// More bytes than ``JSONLimits/maxBytes``.
        public static let tooLarge = Code(.tooLarge)
        /// Nesting deeper than ``JSONLimits/maxDepth``.
        public static let tooDeep = Code(.tooDeep)
        /// No value at all (empty or only white space).
        public static let empty = Code(.empty)

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// 1-based line of the problem (0 when refused before reading).
    public let line: Int
    /// 1-based column of the problem (0 when refused before reading).
    public let column: Int
    /// Byte offset of the problem.
    public let offset: Int
    /// What was wrong, in words.
    public let message: String

    public init(code: Code, line: Int, column: Int, offset: Int, message: String) {
        self.code = code
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
    }

    public var description: String {
        line > 0 ? "invalid JSON at line \(line), column \(column): \(message)" : "invalid JSON: \(message)"
    }
}

/// Bounds on what ``JSONValue/parse(_:limits:)`` accepts.
public struct JSONLimits: Sendable, Hashable, Codable {
    /// Largest accepted input in bytes.
    public var maxBytes: Int
    /// Deepest accepted nesting of arrays and objects (the top-level value is depth 1).
    public var maxDepth: Int

    public init(maxBytes: Int = 1 << 20, maxDepth: Int = 64) {
        precondition(maxBytes >= 0 && maxDepth >= 1, "JSONLimits: maxBytes must be ≥ 0 and maxDepth ≥ 1")
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// 1 MiB and depth 64: ample for any protocol message this product handles.
    public static let `default` = JSONLimits()
}
