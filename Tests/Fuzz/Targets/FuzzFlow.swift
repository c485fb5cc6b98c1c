import Flows
import Foundation

/// libFuzzer target for the flow parser (`compliancectl run`'s input): any bytes must parse to
/// a flow or give a ``FlowError`` naming the file (and a step index within the flow), never a
/// crash. A parsed flow has steps numbered 1…n.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFlow(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let flow = try FlowParser.parse(bytes, file: flowFile)
        guard flow.steps.map(\.index) == Array(1...flow.steps.count) else { fatalError("steps are not numbered 1…n") }
    } catch {
        guard error.file == flowFile else { fatalError("the error names another file: \(error)") }
        if let step = error.step, step < 1 { fatalError("a step index below 1: \(error)") }
    }
    return 0
}

/// A flow file "in" the repository's flows/ (never written), so defaults find mocks/fixtures.
let flowFile = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("flows/fuzz-input.json").path
