import JSON
import Testing
@testable import Flows

@Suite struct MatchingTests {
    @Test func objectPatternsArePartialArraysAreWholeNumbersCompareByValue() {
        let actual: JSONValue = ["kind": "compliance", "payload": ["report": ["status": ["code": 0, "name": "Compliant"]], "codes": [53005, 1]]]
        #expect(JSONPattern.matches(["kind": "compliance"], actual))
        #expect(JSONPattern.matches(["payload": ["report": ["status": ["code": 0.0]]]], actual))
        #expect(!JSONPattern.matches(["payload": ["codes": [53005]]], actual))
        let miss = JSONPattern.mismatch(["payload": ["report": ["status": ["name": "NotCompliant"]]]], actual)
        #expect(miss?.description == #"payload.report.status.name: expected "NotCompliant", got "Compliant""#)
        #expect(JSONPattern.mismatch(["missing": 1], actual)?.description == "missing: expected 1, got nothing")
    }

    @Test func eventsMatchInOrderAndAbsentOnesFail() {
        let events: [JSONValue] = [
            ["seq": 1, "kind": "tokenFailed", "account": "alice@contoso.com", "payload": ["errorCodes": [53005]]],
            ["seq": 2, "kind": "compliance", "account": "alice@contoso.com", "payload": ["report": ["status": ["name": "Compliant"]]]],
        ]
        let inOrder = Sequences.check(
            events, [["kind": "tokenFailed", "account": "ALICE@contoso.com"], ["kind": "compliance"]], absent: [["kind": "wipeStarted"]],
            what: "event", describe: Sequences.describeEvent, matches: Sequences.eventMatches)
        #expect(inOrder.passed)
        let reversed = Sequences.check(
            events, [["kind": "compliance"], ["kind": "tokenFailed"]], absent: [], what: "event", describe: Sequences.describeEvent,
            matches: Sequences.eventMatches)
        #expect(!reversed.passed)
        #expect(reversed.mismatches.first?.contains("after #2 compliance Compliant alice@contoso.com") == true)
        let unwanted = Sequences.check(
            events, [], absent: [["kind": "compliance"]], what: "event", describe: Sequences.describeEvent, matches: Sequences.eventMatches)
        #expect(!unwanted.passed)
    }

    @Test func countedPatternsMatchExactlyTheirCount() {
        let events: [JSONValue] = [
            ["seq": 1, "kind": "tokenAcquired", "account": "bob@contoso.com"],
            ["seq": 2, "kind": "enrollment", "account": "bob@contoso.com", "payload": ["status": 100]],
            ["seq": 3, "kind": "tokenAcquired", "account": "bob@contoso.com"],
            ["seq": 4, "kind": "tokenAcquired", "account": "alice@contoso.com"],
        ]
        func check(_ counts: [CountedPattern]) -> StepCheck {
            Sequences.check(events, [], absent: [], counts: counts, what: "event", describe: Sequences.describeEvent, matches: Sequences.eventMatches)
        }
        let exact = check([
            CountedPattern(pattern: ["kind": "tokenAcquired"], count: 3),
            CountedPattern(pattern: ["kind": "tokenAcquired", "account": "BOB@contoso.com"], count: 2),
            CountedPattern(pattern: ["kind": "enrollment", "payload": ["status": 100]], count: 1),
            CountedPattern(pattern: ["kind": "wipeStarted"], count: 0),
        ])
        #expect(exact.passed, "\(exact.mismatches)")
        #expect(exact.detail.contains("4 counted"))
        let tooFew = check([CountedPattern(pattern: ["kind": "tokenAcquired", "account": "bob@contoso.com"], count: 1)])
        #expect(!tooFew.passed)
        #expect(tooFew.mismatches == [
            #"expected 1 event like {"kind":"tokenAcquired","account":"bob@contoso.com"}, got 2: #1 tokenAcquired bob@contoso.com | #3 tokenAcquired bob@contoso.com"#
        ])
        let none = check([CountedPattern(pattern: ["kind": "compliance"], count: 2)])
        #expect(none.mismatches == [#"expected 2 events like {"kind":"compliance"}, got 0"#])
    }

    @Test(arguments: [("90", 90), ("30s", 30), ("15m", 900), ("8h", 28_800), ("1d2h30m", 95_400), (" 24h ", 86_400)])
    func durations(text: String, seconds: Int64) throws {
        #expect(try DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "h", "8x", "-5", "8h3", "99999999999d", "1.5h"])
    func badDurations(text: String) {
        #expect(throws: DurationText.ParseError.self) { try DurationText.seconds(text) }
    }

    /// A duration past the ten-year bound is a duration, too long: the message says so
    /// instead of "not a duration".
    @Test(arguments: ["3651d", "400000000", "87601h", "3650d1h"])
    func tooLongDurationsSayTheyAreTooLong(text: String) {
        do {
            let seconds = try DurationText.seconds(text)
            Issue.record("'\(text)' was taken as \(seconds) s")
        } catch {
            #expect(error.description == "'\(text)' is longer than ten years, the most the clock moves at once", "\(error)")
        }
    }

    @Test func anAuthoritysOriginIsItsSchemeHostAndPort() {
        #expect(MockAdmin.origin(ofAuthority: "http://127.0.0.1:8080/contoso.com") == "http://127.0.0.1:8080")
        #expect(MockAdmin.origin(ofAuthority: "https://localhost:443") == "https://localhost:443")
        #expect(MockAdmin.origin(ofAuthority: "contoso.com") == nil)
    }
}

/// Admin answers in progress lines: whole members, never cut mid-value.
@Suite struct AnswerTextTests {
    @Test func aLongObjectShowsWholeMembersAndCountsTheRest() throws {
        var object = JSONObject()
        for index in 0..<20 { object["member\(index)"] = .string(String(repeating: "x", count: 20)) }
        let brief = AnswerText.brief(.object(object))
        #expect(brief.hasSuffix(" more members}"), "\(brief)")
        let shown = try #require(brief.components(separatedBy: ", …").first) + "}"
        let parsed = try JSONValue.parse(Array(shown.utf8))
        #expect((parsed.objectValue?.count ?? 0) > 0, "what is shown is whole JSON: \(shown)")
        #expect(brief.contains("… \(20 - (parsed.objectValue?.count ?? 0)) more members"))
    }

    @Test func aShortAnswerIsWholeAndOthersAreDescribed() {
        #expect(AnswerText.brief(["ok": true]) == #"{"ok":true}"#)
        #expect(AnswerText.brief(.array(Array(repeating: "abcdefghij", count: 30))) == "[30 elements, 391 bytes]")
    }
}
