import JSON

/// Stored JSON (a machine's persisted state, a policy document) that cannot be read back.
public struct StoredValueError: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    fileprivate enum Base: String, Sendable, Hashable, Codable {
        case missingField, wrongType, invalidValue, unsupportedVersion
    }

    /// The kind of problem, comparable with the static constants.
    public struct Code: Sendable, Hashable, CustomStringConvertible, Codable {
        fileprivate let base: Base
        public static let missingField = Code(base: .missingField)
        public static let wrongType = Code(base: .wrongType)
        public static let invalidValue = Code(base: .invalidValue)
        public static let unsupportedVersion = Code(base: .unsupportedVersion)
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// Where in the document, as a dotted path (`state.account.upn`).
    public let path: String
    /// What was wrong.
    public let detail: String

    init(code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    /// What happened and what to do.
    public var message: String {
        "The stored value at \(path) cannot be read (\(detail)). It was written by another version or edited by hand; "
            + "restore it from a backup or remove it to start this account over."
    }

    public var description: String { "\(code) at \(path): \(detail)" }
}

/// Reads typed fields out of a stored JSON object, naming the path on failure.
struct StoredReader {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String) throws(StoredValueError) {
        guard case .object = value else {
            throw StoredValueError(code: .wrongType, path: path, detail: "a \(value.kindName), expected an object")
        }
        self.value = value
        self.path = path
    }

    private func member(_ key: String) throws(StoredValueError) -> JSONValue {
        guard let member = value[key] else {
            throw StoredValueError(code: .missingField, path: "\(path).\(key)", detail: "missing")
        }
        return member
    }

    func has(_ key: String) -> Bool { value[key].map { !$0.isNull } ?? false }

    func string(_ key: String) throws(StoredValueError) -> String {
        let member = try member(key)
        guard let text = member.stringValue else {
            throw StoredValueError(code: .wrongType, path: "\(path).\(key)", detail: "a \(member.kindName), expected a string")
        }
        return text
    }

    func int(_ key: String) throws(StoredValueError) -> Int64 {
        let member = try member(key)
        guard case .int(let number) = member else {
            throw StoredValueError(code: .wrongType, path: "\(path).\(key)", detail: "a \(member.kindName), expected an integer")
        }
        return number
    }

    func bool(_ key: String) throws(StoredValueError) -> Bool {
        let member = try member(key)
        guard let flag = member.boolValue else {
            throw StoredValueError(code: .wrongType, path: "\(path).\(key)", detail: "a \(member.kindName), expected a boolean")
        }
        return flag
    }

    func array(_ key: String) throws(StoredValueError) -> [JSONValue] {
        let member = try member(key)
        guard let array = member.arrayValue else {
            throw StoredValueError(code: .wrongType, path: "\(path).\(key)", detail: "a \(member.kindName), expected an array")
        }
        return array
    }

    func object(_ key: String) throws(StoredValueError) -> StoredReader {
        try StoredReader(try member(key), path: "\(path).\(key)")
    }

    func instant(_ key: String) throws(StoredValueError) -> Instant {
        Instant(millisecondsSinceEpoch: try int(key))
    }

    func account(_ key: String) throws(StoredValueError) -> AccountID {
        try AccountID(stored: try member(key), path: "\(path).\(key)")
    }

    func optionalAccount(_ key: String) throws(StoredValueError) -> AccountID? {
        has(key) ? try account(key) : nil
    }

    func invalid(_ key: String, _ detail: String) -> StoredValueError {
        StoredValueError(code: .invalidValue, path: "\(path).\(key)", detail: detail)
    }

    /// Checks the `version` field written by ``storedHeader(_:)``.
    func checkVersion(_ expected: Int64) throws(StoredValueError) {
        try checkVersion(expected...expected)
    }

    /// Checks the `version` field is one of `readable`; returns it.
    @discardableResult
    func checkVersion(_ readable: ClosedRange<Int64>) throws(StoredValueError) -> Int64 {
        let version = try int("version")
        guard readable.contains(version) else {
            let what = readable.count == 1 ? "\(readable.lowerBound)" : "\(readable.lowerBound) to \(readable.upperBound)"
            throw StoredValueError(code: .unsupportedVersion, path: "\(path).version", detail: "version \(version), this build reads \(what)")
        }
        return version
    }
}

extension AccountID {
    /// `{"upn":…,"home":"oid.tid"|null}`.
    var stored: JSONValue {
        ["upn": .string(upn), "home": homeAccountID.map { .string($0.description) } ?? .null]
    }

    init(stored: JSONValue, path: String) throws(StoredValueError) {
        let reader = try StoredReader(stored, path: path)
        let upn = try reader.string("upn")
        var home: HomeAccountID?
        if reader.has("home") {
            let text = try reader.string("home")
            guard let parsed = HomeAccountID(text) else { throw reader.invalid("home", "\"\(text)\" is not oid.tid") }
            home = parsed
        }
        do {
            try self.init(upn, homeAccountID: home)
        } catch {
            throw reader.invalid("upn", error.message)
        }
    }
}
