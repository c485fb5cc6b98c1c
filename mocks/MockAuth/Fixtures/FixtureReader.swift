import JSON

/// Reads one JSON object of a fixture file strictly, keeping the path for messages
/// (`$.users[2].caTargeted`). The keys an object may hold are exactly the ones its reading
/// code asks for: every getter records its key, also when the member is absent, and
/// ``finish()`` refuses any other, naming the closest known one (``ClosestName``). So the
/// known keys of each fixture type live in one place, the code that reads it
/// (`Fixtures+Members.swift`): adding a key there is the one edit.
final class FixtureReader {
    let value: JSONValue
    let path: String
    /// The keys asked for so far, in order: what this object may hold.
    private(set) var known: [String] = []

    init(value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    /// Reads the object with `body`, then refuses the keys `body` did not ask for.
    func read<T>(_ body: (FixtureReader) throws -> T) throws -> T {
        guard value.objectValue != nil else { throw FixtureError(path: path, message: "must be an object, found \(value.kindName)") }
        let result = try body(self)
        try finish()
        return result
    }

    /// Refuses any member nobody asked for, naming the closest known key.
    func finish() throws {
        for key in value.objectValue?.keys ?? [] where !known.contains(key) {
            throw FixtureError(
                path: "\(path).\(key)", message: "unknown key '\(key)' (\(ClosestName.hint(key, among: known))known: \(known.joined(separator: ", ")))")
        }
    }

    /// The member `key`, or nil when absent (recorded as known either way).
    func optionalMember(_ key: String) -> FixtureReader? {
        if !known.contains(key) { known.append(key) }
        return value[key].map { FixtureReader(value: $0, path: "\(path).\(key)") }
    }

    func member(_ key: String) throws -> FixtureReader {
        guard let child = optionalMember(key) else { throw missing(key) }
        return child
    }

    /// The error for a required `key` that is absent: a member nobody asked for that is `key`
    /// misspelt is named, with `key`.
    private func missing(_ key: String) -> FixtureError {
        let unread = (value.objectValue?.keys ?? []).filter { !known.contains($0) }
        if let typo = unread.first(where: { ClosestName.to($0, among: [key]) != nil }) {
            return FixtureError(path: "\(path).\(typo)", message: "unknown key '\(typo)' (closest known: '\(key)', which is required)")
        }
        return FixtureError(path: "\(path).\(key)", message: "missing")
    }

    /// The objects of the array `key`, each read with `body` (unknown keys refused).
    func objects<T>(_ key: String, _ body: (FixtureReader) throws -> T) throws -> [T] {
        let child = try member(key)
        guard let items = child.value.arrayValue else { throw FixtureError(path: child.path, message: "must be an array, found \(child.value.kindName)") }
        return try items.enumerated().map { try FixtureReader(value: $1, path: "\(child.path)[\($0)]").read(body) }
    }

    func string(_ key: String) throws -> String {
        let child = try member(key)
        guard let text = child.value.stringValue, !text.isEmpty else {
            throw FixtureError(path: child.path, message: "must be a non-empty string, found \(child.found)")
        }
        return text
    }

    func optionalString(_ key: String) throws -> String? {
        optionalMember(key) == nil ? nil : try string(key)
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let child = optionalMember(key) else { return nil }
        guard let flag = child.value.boolValue else { throw FixtureError(path: child.path, message: "must be true or false, found \(child.found)") }
        return flag
    }

    /// A whole number from `minimum` to `maximum` (by default a billion: lifetimes to some 31
    /// years, versions and counts far past any test's, and never near an overflow when the mock
    /// adds them to a time or counts on).
    func optionalInt(_ key: String, minimum: Int = 1, maximum: Int = 1_000_000_000) throws -> Int? {
        guard let child = optionalMember(key) else { return nil }
        guard let number = child.value.intValue, number >= minimum, number <= maximum else {
            throw FixtureError(path: child.path, message: "must be a whole number from \(minimum) to \(maximum), found \(child.found)")
        }
        return Int(number)
    }

    func strings() throws -> [String] {
        guard let items = value.arrayValue else { throw FixtureError(path: path, message: "must be an array of strings, found \(found)") }
        return try items.enumerated().map { index, item in
            guard let text = item.stringValue else { throw FixtureError(path: "\(path)[\(index)]", message: "must be a string, found \(item.kindName)") }
            return text
        }
    }

    func optionalStrings(_ key: String) throws -> [String]? {
        try optionalMember(key)?.strings()
    }

    /// What the member holds, for messages: its kind, and a short scalar's text.
    var found: String {
        switch value {
        case .string(let text): "string \"\(text.prefix(40))\""
        case .int, .double, .bool: "\(value.kindName) \(value.encodedString())"
        default: value.kindName
        }
    }
}
