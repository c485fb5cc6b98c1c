import Foundation
import Testing

/// Replays every committed fuzz input (`Corpus/TARGET` and `Crashes/TARGET`) through the same
/// check the libFuzzer target runs (Bodies/), in the normal test command. Each target replays
/// in a child process, so an input that crashes fails its test (naming the input) instead of
/// the whole run.
enum FuzzReplay {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The committed inputs of `target`, in name order.
    static func inputs(_ target: String) -> [URL] {
        ["Corpus", "Crashes"].flatMap { folder -> [URL] in
            let directory = fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
        }
    }

    /// Runs `body` on every input of `target`, naming each on standard error first.
    static func replay(_ target: String, _ body: ([UInt8]) -> Void) {
        for input in inputs(target) {
            FileHandle.standardError.write(Data("replaying \(input.path)\n".utf8))
            body(Array((try? Data(contentsOf: input)) ?? Data()))
        }
    }

    /// The input a failed replay stopped at: the last one it named.
    static func lastInput(_ result: ExitTest.Result?) -> String {
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        return text.split(separator: "\n").last { $0.hasPrefix("replaying ") }.map(String.init) ?? text
    }
}

@Suite struct FuzzReplayTests {
    @Test(arguments: ["json", "token-classifier", "plist", "flow"])
    func everyTargetHasInputs(_ target: String) {
        #expect(FuzzReplay.inputs(target).count >= 4, "Tests/Fuzz/Corpus/\(target) holds the target's seed inputs")
    }

    /// Each target replays in a child process (an exit test), so a crashing input fails this
    /// case, naming the input, instead of stopping the whole run.
    @Test(arguments: ["json", "token-classifier", "plist", "flow"])
    func everyCommittedInputPassesItsCheck(_ target: String) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [target] in
            switch target {
            case "json": FuzzReplay.replay(target, fuzzJSONInput)
            case "token-classifier": FuzzReplay.replay(target, fuzzTokenClassifierInput)
            case "plist": FuzzReplay.replay(target, fuzzPlistInput)
            default: FuzzReplay.replay(target, fuzzFlowInput)
            }
        }
        if result?.exitStatus != .exitCode(0) { Issue.record("\(target): stopped at \(FuzzReplay.lastInput(result))") }
    }

    /// The replay can fail: a check that traps stops the child, and the test sees it.
    @Test func aCrashingInputFailsTheReplay() async {
        await #expect(processExitsWith: .failure) {
            FuzzReplay.replay("json") { _ in fatalError("a deliberately crashing check") }
        }
    }
}
