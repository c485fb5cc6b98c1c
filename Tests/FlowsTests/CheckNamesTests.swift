import ChildProcess
import Foundation
import MockAuth
import Testing
@testable import Flows

/// The names check patterns may use are the ones the daemon and the mock produce, and a
/// pattern naming anything else is refused when the flow is read.
@Suite struct CheckNamesTests {
    @Test func eventKindsAreTheDaemonReadmesKinds() throws {
        let readme = try String(contentsOfFile: FlowParserTests.root + "/Sources/complianced/README.md", encoding: .utf8)
        let table = try #require(readme.components(separatedBy: "| kind | payload | when |").last)
        var kinds: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let first = line.split(separator: "|").first ?? ""
            for part in first.split(separator: "`").enumerated() where part.offset % 2 == 1 { kinds.insert(String(part.element)) }
        }
        #expect(kinds == KnownNames.eventKinds)
    }

    /// ComplianceStory (the control client) reads event kinds through the one vocabulary,
    /// `ComplianceEvent.Kind`: no kind is spelled there as a string (issue 37).
    @Test func theStorySpellsNoEventKind() throws {
        let source = try ["ComplianceStory.swift", "ComplianceStory+Diagnoses.swift"].map {
            try String(contentsOfFile: FlowParserTests.root + "/Sources/ControlClient/" + $0, encoding: .utf8)
        }.joined(separator: "\n")
        let spelled = KnownNames.eventKinds.filter { source.contains("\"\($0)\"") }
        #expect(spelled.isEmpty, "event kinds spelled as strings in ComplianceStory: \(spelled.sorted())")
        #expect(source.contains("ComplianceEvent.Kind"))
    }

    @Test func requestRoutesAreTheMocksRoutes() {
        #expect(KnownNames.requestRoutes == Set(RouteName.all))
    }

    @Test func aPatternNamingAnUnknownKindOrRouteIsRefused() {
        let kind = FlowParserTests.error("""
            {"steps": [{"do": "expectEvents", "events": [{"kind": "signedIn"}], "absent": [{"kind": "wipeStart", "account": "a@b.c"}]}]}
            """)
        #expect(kind?.reason.contains("event pattern 2: 'kind' \"wipeStart\" is not an event kind the daemon writes") == true, "\(String(describing: kind))")
        let route = FlowParserTests.error("""
            {"steps": [{"do": "expectRequests", "counts": [{"route": "mam.enrol", "count": 0}]}]}
            """)
        #expect(route?.reason.contains("counted request pattern 1: 'route' \"mam.enrol\" is not a route of the mock's request log") == true, "\(String(describing: route))")
    }
}

/// Only a SIGKILL that left the armed point's marker is the armed crash.
@Suite struct CrashVerdictTests {
    let armed = (point: "wipe:done", step: 3)

    @Test func theArmedPointsMarkerAndSIGKILLIsTheCrash() {
        #expect(CrashVerdict.judge(armed: armed, exit: .signalled(SIGKILL), marker: "wipe:done\n") == .reachedArmedPoint)
    }

    @Test func anyOtherDeathIsAFailureSayingHow() {
        #expect(CrashVerdict.judge(armed: armed, exit: .signalled(SIGKILL), marker: nil)
            == .otherDeath("complianced killed by signal 9 while the crash point wipe:done armed in step 3 was armed, without reaching it: something else stopped it"))
        #expect(CrashVerdict.judge(armed: armed, exit: .signalled(SIGTRAP), marker: nil)
            == .otherDeath("complianced killed by signal 5 while the crash point wipe:done armed in step 3 was armed, without reaching it: something else stopped it"))
        #expect(CrashVerdict.judge(armed: armed, exit: .exited(1), marker: "wipe:done\n")
            == .otherDeath("complianced reached the crash point wipe:done armed in step 3 but then exited with status 1 instead of killing itself (SIGKILL)"))
        #expect(CrashVerdict.judge(armed: armed, exit: .signalled(SIGKILL), marker: "wipe:intentRecorded\n")
            == .otherDeath("complianced stopped at the crash point wipe:intentRecorded, not at the crash point wipe:done armed in step 3 (killed by signal 9)"))
    }
}
