import PropertyBased
import Testing
@testable import JSON

/// Random documents built from a seed, so the property library drives (and can replay) them.
struct RandomJSON {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func value(depth: Int = 0) -> JSONValue {
        switch below(depth > 4 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(below(2) == 0)
        case 2: return .int(Int64(bitPattern: next()))
        case 3:
            let double = Double(bitPattern: next())
            return .double(double.isFinite ? double : Double(below(1000)) / 8)
        case 4, 5: return .string(string())
        case 6: return .array((0..<below(5)).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            // jansson refuses NUL in keys when parsing (JSONParseError.Code.nulInKey), so keys avoid it.
            for _ in 0..<below(5) { object[string().replacingNUL()] = value(depth: depth + 1) }
            return .object(object)
        }
    }

    private mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<below(8) {
            let pick = below(4)
            let raw: UInt32 = switch pick {
            case 0: UInt32(below(0x20))  // control characters, NUL included
            case 1: UInt32(0x20 + below(0x5F))  // printable ASCII, quote and backslash included
            case 2: UInt32(0xA0 + below(0xD000))  // BMP
            default: UInt32(0x10000 + below(0x10000))  // astral
            }
            scalars.append(Unicode.Scalar(raw) ?? "?")
        }
        return String(scalars)
    }
}

extension String {
    fileprivate func replacingNUL() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{0}" ? "0" : $0 }))
    }
}

@Suite struct JSONPropertyTests {
    @Test func encodeThenParseGivesTheSameValue() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int.max)) { seed in
            var random = RandomJSON(seed: UInt64(seed))
            let value = random.value()
            let bytes = value.encoded()
            let parsed = try? JSONValue.parse(bytes)
            #expect(parsed == value, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func encodingIsStableAndSortingOnlyReorders() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var random = RandomJSON(seed: UInt64(seed))
            let value = random.value()
            let once = value.encoded(sortedKeys: true)
            let twice = (try? JSONValue.parse(once))?.encoded(sortedKeys: true)
            #expect(once == twice)
            #expect(once.count == value.encoded().count)
        }
    }
}
