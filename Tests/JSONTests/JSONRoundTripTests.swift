import Testing
@testable import JSON

@Suite struct JSONRoundTripTests {
    @Test func parsesEveryKind() throws {
        let value = try JSONValue.parse(#"{"a":null,"b":true,"c":-12,"d":1.5,"e":"x\u00e9","f":[1,[2]],"g":{}}"#)
        #expect(value["a"] == .null)
        #expect(value["b"] == .bool(true))
        #expect(value["c"] == .int(-12))
        #expect(value["d"] == .double(1.5))
        #expect(value["e"] == .string("xé"))
        #expect(value["f"]?[1]?[0] == .int(2))
        #expect(value["g"] == .object(JSONObject()))
    }

    @Test func keepsKeyOrder() throws {
        let text = #"{"z":1,"a":2,"m":3}"#
        let value = try JSONValue.parse(text)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value.encodedString() == text)
        #expect(value.encodedString(sortedKeys: true) == #"{"a":2,"m":3,"z":1}"#)
    }

    @Test func integersBeyondDoublePrecisionRoundTripExactly() throws {
        for number: Int64 in [9_007_199_254_740_993, Int64.max, Int64.min, -9_007_199_254_740_993] {
            let value = try JSONValue.parse("[\(number)]")
            #expect(value[0] == .int(number))
            #expect(value.encodedString() == "[\(number)]")
        }
    }

    @Test func keepsNulInsideStrings() throws {
        let value = try JSONValue.parse(#"{"k":"a\u0000b"}"#)
        #expect(value["k"]?.stringValue == "a\u{0}b")
        #expect(try JSONValue.parse(value.encoded()) == value)
    }

    @Test func scalarsAtTopLevel() throws {
        #expect(try JSONValue.parse("42") == 42)
        #expect(try JSONValue.parse("\"s\"") == "s")
        #expect(try JSONValue.parse(" null ") == nil)
        #expect(JSONValue.string("").encodedString() == #""""#)
    }

    @Test func nonFiniteDoublesEncodeAsNull() {
        #expect(JSONValue.array([.double(.nan), .double(.infinity)]).encodedString() == "[null,null]")
    }
}
