/// libFuzzer target for the flow parser: ``fuzzFlowInput(_:)`` (Bodies/) on every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFlow(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzFlowInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
