import Testing
@testable import JSON

@Suite struct JSONParseErrorTests {
    private func failure(_ text: String, limits: JSONLimits = .default) -> JSONParseError? {
        failure(Array(text.utf8), limits: limits)
    }

    private func failure(_ bytes: [UInt8], limits: JSONLimits = .default) -> JSONParseError? {
        do {
            _ = try JSONValue.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func syntaxErrorNamesLineAndColumn() throws {
        let error = try #require(failure("{\n  \"a\": tru\n}"))
        #expect(error.code == .syntax)
        #expect(error.line == 2)
        #expect(error.column >= 8)
        #expect(error.description.hasPrefix("invalid JSON at line 2, column"))
    }

    @Test func trailingCommaAndTrailingText() {
        #expect(failure(#"{"a":1,}"#)?.code == .syntax)
        #expect(failure("{} x")?.code == .syntax)
        #expect(failure("[1 2]")?.code == .syntax)
    }

    @Test func invalidUTF8IsRefused() {
        #expect(failure([0x22, 0xFF, 0x22])?.code == .invalidUTF8)
        #expect(failure([0x22, 0xC3, 0x22])?.code == .invalidUTF8)  // truncated sequence
        #expect(failure(Array(#"["\ud800"]"#.utf8))?.code != nil)  // lone surrogate escape
    }

    @Test func duplicateKeysAreRefused() throws {
        let error = try #require(failure(#"{"a":1,"b":{"c":2,"c":3}}"#))
        #expect(error.code == .duplicateKey)
        #expect(error.message.contains("c"))
    }

    @Test func nulInKeyIsRefused() {
        #expect(failure(#"{"a\u0000b":1}"#)?.code == .nulInKey)
    }

    @Test func integersBeyondInt64AreRefused() {
        #expect(failure("[9223372036854775808]")?.code == .numberOutOfRange)
        #expect(failure("[-9223372036854775809]")?.code == .numberOutOfRange)
        #expect(failure("[1e400]")?.code == .numberOutOfRange)
    }

    @Test func prematureEndAndEmpty() {
        #expect(failure(#"{"a":"#)?.code == .prematureEnd)
        #expect(failure(#"["abc"#)?.code == .prematureEnd)
        #expect(failure("")?.code == .empty)
        #expect(failure(" \n\t ")?.code == .empty)
    }

    @Test func sizeLimit() throws {
        let error = try #require(failure("[1,2,3,4,5,6]", limits: JSONLimits(maxBytes: 10)))
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("13 bytes"))
        #expect(failure("[1,2,3]", limits: JSONLimits(maxBytes: 10)) == nil)
    }

    @Test func depthLimitNamesWhere() throws {
        let limits = JSONLimits(maxDepth: 3)
        #expect(failure("[[[1]]]", limits: limits) == nil)
        let error = try #require(failure("[\n[{\"x\":[1]}]]", limits: limits))
        #expect(error.code == .tooDeep)
        #expect(error.line == 2)
        #expect(error.column == 7)
        // Brackets inside strings do not count.
        #expect(failure(#"[["[[[[", "]]]]"]]"#, limits: limits) == nil)
    }

    @Test func janssonsOwnDepthLimitIsReportedAsTooDeep() {
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(failure(deep, limits: JSONLimits(maxDepth: 10_000))?.code == .tooDeep)
    }
}
