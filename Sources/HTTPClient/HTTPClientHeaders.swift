/// HTTP header fields in order, with case-insensitive lookup by name.
public struct HTTPClientHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name: name, value: value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Appends a field (a name may repeat).
    public mutating func add(name: String, value: String) {
        fields.append((name, value))
    }

    /// Replaces every field with this name by one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        fields.removeAll { $0.name.lowercased() == name.lowercased() }
        fields.append((name, value))
    }

    /// The first value of the named field.
    public subscript(name: String) -> String? {
        let key = name.lowercased()
        return fields.first { $0.name.lowercased() == key }?.value
    }

    /// Every value of the named field, in order.
    public func values(for name: String) -> [String] {
        let key = name.lowercased()
        return fields.filter { $0.name.lowercased() == key }.map(\.value)
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPClientHeaders, rhs: HTTPClientHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}
