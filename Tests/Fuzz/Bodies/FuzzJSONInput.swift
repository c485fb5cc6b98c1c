import JSON

/// One fuzz input for the JSON module (jansson underneath): parsing must never crash, and
/// whatever parses must encode and parse back to the same value. Run by the libFuzzer target
/// (Targets/FuzzJSON.swift) and replayed over the corpus by the test command (Replay/).
func fuzzJSONInput(_ bytes: [UInt8]) {
    for limits in [JSONLimits.default, JSONLimits(maxBytes: 256, maxDepth: 4)] {
        switch Result(catching: { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(bytes, limits: limits) }) {
        case .success(let value):
            let encoded = value.encoded()
            guard let again = try? JSONValue.parse(encoded, limits: JSONLimits(maxBytes: 1 << 30, maxDepth: limits.maxDepth)) else {
                fatalError("encoded JSON does not parse again: \(value.encodedString())")
            }
            guard again == value else { fatalError("round trip changed the value: \(value.encodedString())") }
            _ = value.encoded(sortedKeys: true)
        case .failure(let error):
            _ = error.description  // line/column rendering must hold for any input
        }
    }
}
