import ComplianceCore
import JSON
import Synchronization

/// A compact binary form of any `Codable` value, for the explorer's frontier: a state waits
/// there as bytes (some hundreds) instead of as a tree of Swift collections (some kilobytes
/// of heap), and is decoded when it is expanded.
///
/// The format is positional: a struct's fields follow one another in declaration order
/// without their names (decoding reads them in the order the synthesized `init(from:)` asks);
/// integers are LEB128 varints (signed ones zigzagged), a string the index of its value in a
/// table of the strings met so far (a universe spells few: names, scopes, record keys, case
/// names; ``internedStrings`` says how many), an unkeyed container (arrays, sets,
/// dictionaries with other keys) a 2-byte count and its elements, an optional a presence
/// byte, an enum's case its name's index in that table (the decoder needs the case,
/// `allKeys`, before the payload). A `JSONValue` (a committed record) is the index of the value in a table of
/// the records met so far (``records``); so are an account's state and its ID. A dictionary keyed
/// by `String` or `Int` (the standard library encodes it keyed by its own keys) is a count,
/// then per member its key, the length of its value and the value, so that `allKeys` can list
/// the keys before the values are asked for. Synthesized coding keys are field-less enums
/// (at most one byte); the dictionary's key type is a struct: its size tells them apart.
///
/// Only values this process encoded are decoded (nothing here is read from outside), and the
/// bytes never leave it: the encoder sets ``CodingUserInfoKey/revealsSecrets``, so
/// tokens are encoded too.
enum FrontierCoding {
    static func encode(_ value: some Encodable) -> [UInt8] {
        let writer = ByteWriter()
        do {
            try value.encode(to: BinaryEncoder(writer: writer))
        } catch {
            preconditionFailure("the frontier coding never throws: \(error)")
        }
        return writer.bytes
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T {
        let reader = ByteReader(bytes: bytes)
        do {
            let value = try T(from: BinaryDecoder(reader: reader))
            precondition(reader.position == bytes.count, "\(bytes.count - reader.position) bytes left after decoding \(T.self)")
            return value
        } catch {
            preconditionFailure("a frontier state did not decode: \(error)")
        }
    }

    /// The strings (values and enum case names) met so far, each with its index (shared by
    /// the workers; a decoded string shares its storage with the table's).
    /// Keyed by the exact UTF-8 bytes: Swift's `==` on strings is canonical equivalence,
    /// and two spellings the universe tells apart must stay two.
    static let strings = Mutex<(indexes: [ExactString: UInt32], values: [String])>(([:], []))

    /// How many strings the table holds.
    static var internedStrings: Int { strings.withLock { $0.values.count } }

    static func index(of string: String) -> UInt32 {
        strings.withLock { table in
            if let index = table.indexes[ExactString(string)] { return index }
            let index = UInt32(table.values.count)
            table.indexes[ExactString(string)] = index
            table.values.append(string)
            return index
        }
    }

    static func string(at index: UInt32) throws -> String {
        let string = strings.withLock { Int(index) < $0.values.count ? $0.values[Int(index)] : nil }
        guard let string else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no string \(index) in the table")) }
        return string
    }

    /// The committed records (JSON values), the accounts' states and their IDs met so far:
    /// each is written as its index in its table and read back as the table's value (sharing
    /// its storage). A universe has few of each, repeated in state after state. (Keyed by
    /// their encoding: writing one costs what it did, reading one is a look-up.)
    static let records = InternTable<JSONValue>()
    static let accountStates = InternTable<ComplianceMachine.AccountState>()
    static let accountIDs = InternTable<AccountID>()

    /// How many values the tables hold.
    static var internedRecords: Int { records.count + accountStates.count + accountIDs.count }

    /// A synthesized coding key (a field-less enum) rather than a dictionary's key (a struct).
    static func isFieldKey<Key: CodingKey>(_: Key.Type) -> Bool { MemoryLayout<Key>.size <= 1 }
}

/// A string compared and hashed by its UTF-8 bytes (not by canonical equivalence).
struct ExactString: Hashable {
    let value: String

    init(_ value: String) { self.value = value }

    static func == (lhs: ExactString, rhs: ExactString) -> Bool { lhs.value.utf8.elementsEqual(rhs.value.utf8) }

    func hash(into hasher: inout Hasher) {
        for byte in value.utf8 { hasher.combine(byte) }
    }
}

/// Values met so far, each with its index (shared by the workers), keyed by their encoding:
/// `==` would take two canonically equivalent spellings for one value.
final class InternTable<Value: Codable & Sendable>: Sendable {
    private let table = Mutex<(indexes: [[UInt8]: UInt32], values: [Value])>(([:], []))

    var count: Int { table.withLock { $0.values.count } }

    func index(of value: Value) -> UInt32 {
        let writer = ByteWriter()
        do { try value.encode(to: BinaryEncoder(writer: writer)) } catch { preconditionFailure("the frontier coding never throws: \(error)") }
        let key = writer.bytes
        return table.withLock { table in
            if let index = table.indexes[key] { return index }
            let index = UInt32(table.values.count)
            table.indexes[key] = index
            table.values.append(value)
            return index
        }
    }

    func value(at index: UInt32) throws -> Value {
        let value: Value? = table.withLock { Int(index) < $0.values.count ? .some($0.values[Int(index)]) : .none }
        guard let value else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no \(Value.self) \(index) in the table")) }
        return value
    }
}

final class ByteWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(512) }

    func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    func string(_ value: String) { varint(UInt64(FrontierCoding.index(of: value))) }

    /// A 2-byte slot filled in later (``patch(_:_:)``): a count, or a length.
    func slot() -> Int {
        bytes.append(contentsOf: [0, 0])
        return bytes.count - 2
    }

    func patch(_ slot: Int, _ value: Int) {
        precondition(value <= 0xFFFF, "a collection of \(value) members or bytes: the frontier coding holds at most 65,535")
        bytes[slot] = UInt8(truncatingIfNeeded: value)
        bytes[slot + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }
}

final class ByteReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func byte() throws -> UInt8 {
        guard position < bytes.count else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "frontier bytes end early")) }
        defer { position += 1 }
        return bytes[position]
    }

    func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    func signed() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    func string() throws -> String { try FrontierCoding.string(at: UInt32(truncatingIfNeeded: try varint())) }

    func slot() throws -> Int { Int(try byte()) | Int(try byte()) << 8 }
}

// MARK: - Encoding

struct BinaryEncoder: Encoder {
    let writer: ByteWriter
    var codingPath: [any CodingKey] { [] }
    /// The bytes stay in the process: a ``SecretToken`` may encode its value.
    var userInfo: [CodingUserInfoKey: Any] { [.revealsSecrets: true] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedWriter<Key>(writer: writer, countSlot: FrontierCoding.isFieldKey(Key.self) ? nil : writer.slot()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedWriter(writer: writer, countSlot: writer.slot()) }

    func singleValueContainer() -> any SingleValueEncodingContainer { ValueWriter(writer: writer) }
}

/// The scalars every container writes alike.
protocol ScalarWriting {
    var writer: ByteWriter { get }
}

extension ScalarWriting {
    func write(_ value: Bool) { writer.bytes.append(value ? 1 : 0) }
    func write(_ value: String) { writer.string(value) }
    func write(_ value: Double) { writer.varint(value.bitPattern) }
    func write(_ value: Float) { writer.varint(UInt64(value.bitPattern)) }
    func write(_ value: some FixedWidthInteger & SignedInteger) { writer.signed(Int64(value)) }
    func write(_ value: some FixedWidthInteger & UnsignedInteger) { writer.varint(UInt64(value)) }
    func write<T: Encodable>(_ value: T) throws {
        if T.self == JSONValue.self {
            writer.varint(UInt64(FrontierCoding.records.index(of: value as! JSONValue)))
        } else if T.self == ComplianceMachine.AccountState.self {
            writer.varint(UInt64(FrontierCoding.accountStates.index(of: value as! ComplianceMachine.AccountState)))
        } else if T.self == AccountID.self {
            writer.varint(UInt64(FrontierCoding.accountIDs.index(of: value as! AccountID)))
        } else {
            try value.encode(to: BinaryEncoder(writer: writer))
        }
    }
}

struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol, ScalarWriting {
    let writer: ByteWriter
    /// A dictionary's count (nil for a struct's or an enum's fields).
    let countSlot: Int?
    var count = 0
    var codingPath: [any CodingKey] { [] }

    /// Before a value: a dictionary's key, and the slot of the value's length (see ``FrontierCoding``).
    private mutating func begin(_ key: Key) -> Int? {
        guard let countSlot else { return nil }
        count += 1
        writer.patch(countSlot, count)
        writer.string(key.stringValue)
        return writer.slot()
    }

    private func end(_ lengthSlot: Int?) {
        guard let lengthSlot else { return }
        writer.patch(lengthSlot, writer.bytes.count - lengthSlot - 2)
    }

    mutating func encodeNil(forKey key: Key) { let slot = begin(key); writer.bytes.append(0); end(slot) }
    mutating func encode(_ value: Bool, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: String, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: Double, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: Float, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: Int, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: Int8, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: Int16, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: Int32, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: Int64, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: UInt, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: UInt8, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: UInt16, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: UInt32, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: UInt64, forKey key: Key) { let slot = begin(key); write(value); end(slot) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws { let slot = begin(key); try write(value); end(slot) }

    // An optional field: a presence byte, then the value.
    private mutating func present(_ isPresent: Bool) { writer.bytes.append(isPresent ? 1 : 0) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) { present(value != nil); if let value { encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
        present(value != nil)
        if let value { try encode(value, forKey: key) }
    }

    /// An enum's case: its name's index, then its payload.
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        writer.string(key.stringValue)
        return BinaryEncoder(writer: writer).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.string(key.stringValue)
        return BinaryEncoder(writer: writer).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { BinaryEncoder(writer: writer) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { BinaryEncoder(writer: writer) }
}

struct UnkeyedWriter: UnkeyedEncodingContainer, ScalarWriting {
    let writer: ByteWriter
    let countSlot: Int
    var count = 0
    var codingPath: [any CodingKey] { [] }

    private mutating func counted() {
        count += 1
        writer.patch(countSlot, count)
    }

    mutating func encodeNil() { counted(); writer.bytes.append(0) }
    mutating func encode(_ value: Bool) { counted(); write(value) }
    mutating func encode(_ value: String) { counted(); write(value) }
    mutating func encode(_ value: Double) { counted(); write(value) }
    mutating func encode(_ value: Float) { counted(); write(value) }
    mutating func encode(_ value: Int) { counted(); write(value) }
    mutating func encode(_ value: Int8) { counted(); write(value) }
    mutating func encode(_ value: Int16) { counted(); write(value) }
    mutating func encode(_ value: Int32) { counted(); write(value) }
    mutating func encode(_ value: Int64) { counted(); write(value) }
    mutating func encode(_ value: UInt) { counted(); write(value) }
    mutating func encode(_ value: UInt8) { counted(); write(value) }
    mutating func encode(_ value: UInt16) { counted(); write(value) }
    mutating func encode(_ value: UInt32) { counted(); write(value) }
    mutating func encode(_ value: UInt64) { counted(); write(value) }
    mutating func encode(_ value: some Encodable) throws { counted(); try write(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        counted()
        return BinaryEncoder(writer: writer).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        counted()
        return BinaryEncoder(writer: writer).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { counted(); return BinaryEncoder(writer: writer) }
}

/// A single value: scalars as they are; a generic value after a 1 (``encodeNil()`` writes the
/// 0 that tells an absent optional).
struct ValueWriter: SingleValueEncodingContainer, ScalarWriting {
    let writer: ByteWriter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { writer.bytes.append(0) }
    mutating func encode(_ value: Bool) { write(value) }
    mutating func encode(_ value: String) { write(value) }
    mutating func encode(_ value: Double) { write(value) }
    mutating func encode(_ value: Float) { write(value) }
    mutating func encode(_ value: Int) { write(value) }
    mutating func encode(_ value: Int8) { write(value) }
    mutating func encode(_ value: Int16) { write(value) }
    mutating func encode(_ value: Int32) { write(value) }
    mutating func encode(_ value: Int64) { write(value) }
    mutating func encode(_ value: UInt) { write(value) }
    mutating func encode(_ value: UInt8) { write(value) }
    mutating func encode(_ value: UInt16) { write(value) }
    mutating func encode(_ value: UInt32) { write(value) }
    mutating func encode(_ value: UInt64) { write(value) }
    mutating func encode(_ value: some Encodable) throws {
        writer.bytes.append(1)
        try write(value)
    }
}

// MARK: - Decoding

struct BinaryDecoder: Decoder {
    let reader: ByteReader
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedReader<Key>(reader: reader))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try UnkeyedReader(reader: reader) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { ValueReader(reader: reader) }
}

protocol ScalarReading {
    var reader: ByteReader { get }
}

extension ScalarReading {
    func read(_: Bool.Type) throws -> Bool { try reader.byte() != 0 }
    func read(_: String.Type) throws -> String { try reader.string() }
    func read(_: Double.Type) throws -> Double { Double(bitPattern: try reader.varint()) }
    func read(_: Float.Type) throws -> Float { Float(bitPattern: UInt32(truncatingIfNeeded: try reader.varint())) }
    func read<T: FixedWidthInteger & SignedInteger>(_: T.Type) throws -> T { T(truncatingIfNeeded: try reader.signed()) }
    func read<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws -> T { T(truncatingIfNeeded: try reader.varint()) }
    func read<T: Decodable>(_: T.Type) throws -> T {
        if T.self == JSONValue.self { return try FrontierCoding.records.value(at: UInt32(truncatingIfNeeded: try reader.varint())) as! T }
        if T.self == ComplianceMachine.AccountState.self {
            return try FrontierCoding.accountStates.value(at: UInt32(truncatingIfNeeded: try reader.varint())) as! T
        }
        if T.self == AccountID.self { return try FrontierCoding.accountIDs.value(at: UInt32(truncatingIfNeeded: try reader.varint())) as! T }
        return try T(from: BinaryDecoder(reader: reader))
    }
}

/// A class: the protocol's reads are not `mutating`, and an enum's case or a dictionary's
/// place is state.
final class KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol, ScalarReading {
    let reader: ByteReader
    var codingPath: [any CodingKey] { [] }
    /// A dictionary's members: each key and where its value starts; and where the dictionary ends.
    private let members: [(key: Key, offset: Int)]?
    private var end = 0
    private var nextMember = 0
    /// An enum's case, once read.
    private var caseKey: Key?

    init(reader: ByteReader) throws {
        self.reader = reader
        guard !FrontierCoding.isFieldKey(Key.self) else {
            members = nil
            return
        }
        let count = try reader.slot()
        var members: [(key: Key, offset: Int)] = []
        members.reserveCapacity(count)
        for _ in 0..<count {
            let name = try reader.string()
            let length = try reader.slot()
            guard let key = Key(stringValue: name) else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "key \(name)")) }
            members.append((key, reader.position))
            reader.position += length
        }
        end = reader.position
        self.members = members
    }

    var allKeys: [Key] {
        get {
            if let members { return members.map(\.key) }
            if caseKey == nil, let name = try? reader.string() { caseKey = Key(stringValue: name) }
            return caseKey.map { [$0] } ?? []
        }
    }

    func contains(_ key: Key) -> Bool { true }

    /// Before a value: a dictionary's member is found at its place.
    private func begin() {
        guard let members else { return }
        reader.position = members[nextMember].offset
        nextMember += 1
    }

    private func finish() {
        guard let members, nextMember == members.count else { return }
        reader.position = end
    }

    private func value<T>(_ read: () throws -> T) rethrows -> T {
        begin()
        defer { finish() }
        return try read()
    }

    /// An optional field's presence byte (``decodeIfPresent`` reads it here).
    func decodeNil(forKey key: Key) throws -> Bool { try reader.byte() == 0 }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value { try read(type) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value { try read(type) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value { try read(type) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value { try read(type) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value { try read(type) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value { try read(type) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value { try read(type) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value { try read(type) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value { try read(type) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value { try read(type) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value { try read(type) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value { try read(type) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value { try read(type) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value { try read(type) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value { try read(type) } }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        if caseKey == nil { _ = try reader.varint() }
        return try BinaryDecoder(reader: reader).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        if caseKey == nil { _ = try reader.varint() }
        return try BinaryDecoder(reader: reader).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { BinaryDecoder(reader: reader) }
    func superDecoder(forKey key: Key) throws -> any Decoder { BinaryDecoder(reader: reader) }
}

struct UnkeyedReader: UnkeyedDecodingContainer, ScalarReading {
    let reader: ByteReader
    let count: Int?
    var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var isAtEnd: Bool { currentIndex >= count! }

    init(reader: ByteReader) throws {
        self.reader = reader
        count = try reader.slot()
    }

    mutating func decodeNil() throws -> Bool {
        guard reader.bytes[reader.position] == 0 else { return false }
        reader.position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        currentIndex += 1
        return try read(type)
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try read(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return try BinaryDecoder(reader: reader).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return try BinaryDecoder(reader: reader).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return BinaryDecoder(reader: reader)
    }
}

struct ValueReader: SingleValueDecodingContainer, ScalarReading {
    let reader: ByteReader
    var codingPath: [any CodingKey] { [] }

    /// An absent optional's 0 (a present one's 1 is read by the generic ``decode(_:)``).
    func decodeNil() -> Bool {
        guard reader.bytes[reader.position] == 0 else { return false }
        reader.position += 1
        return true
    }

    func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    func decode(_ type: String.Type) throws -> String { try read(type) }
    func decode(_ type: Double.Type) throws -> Double { try read(type) }
    func decode(_ type: Float.Type) throws -> Float { try read(type) }
    func decode(_ type: Int.Type) throws -> Int { try read(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        _ = try reader.byte()
        return try read(type)
    }
}
