import Flows
import Foundation

/// One fuzz input for the flow parser (`compliancectl run`'s input): any bytes must parse to
/// a flow or give a ``FlowError`` naming the file (and a step index within the flow), never a
/// crash. A parsed flow has steps numbered 1…n. Run by the libFuzzer target
/// (Targets/FuzzFlow.swift) and replayed over the corpus by the test command (Replay/).
func fuzzFlowInput(_ bytes: [UInt8]) {
    do {
        let flow = try FlowParser.parse(bytes, file: fuzzFlowFile)
        guard flow.steps.map(\.index) == Array(1..<(flow.steps.count + 1)) else { fatalError("steps are not numbered 1…n") }
    } catch {
        guard error.file == fuzzFlowFile else { fatalError("the error names another file: \(error)") }
        if let step = error.step, step < 1 { fatalError("a step index below 1: \(error)") }
    }
}

/// A flow file "in" the repository's flows/ (never written), so defaults find mocks/fixtures.
let fuzzFlowFile = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("flows/fuzz-input.json").path
