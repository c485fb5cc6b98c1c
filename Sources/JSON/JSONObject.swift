/// A JSON object: string keys in insertion order, each present once.
///
/// Equality is structural and order-sensitive (two objects with the same members in a
/// different order are not `==`); use ``JSONObject/sameMembers(as:)`` for set semantics.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, Codable {
    public typealias Element = (key: String, value: JSONValue)

    private var entries: [Entry]

    /// One member; internal so the parser can build the storage directly.
    struct Entry: Sendable, Hashable, Codable {
        var key: String
        var value: JSONValue
    }

    public init() { entries = [] }

    /// Builds an object from pairs in order; a repeated key keeps its first position and last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        entries = []
        for (key, value) in pairs { self[key] = value }
    }

    /// Takes the members as they are, without checking for repeated keys; the parser uses it
    /// after jansson has already rejected duplicates.
    init(uncheckedEntries entries: [Entry]) {
        self.entries = entries
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Element {
        let entry = entries[position]
        return (entry.key, entry.value)
    }

    /// The keys in order.
    public var keys: [String] { entries.map(\.key) }

    /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            for entry in entries where entry.key == key { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    entries[index].value = newValue
                } else {
                    entries.remove(at: index)
                }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// True when both objects have the same keys with `==` values, in any order.
    public func sameMembers(as other: JSONObject) -> Bool {
        guard count == other.count else { return false }
        return entries.allSatisfy { other[$0.key] == $0.value }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Keys keep the order written; a repeated key keeps its first position and last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
