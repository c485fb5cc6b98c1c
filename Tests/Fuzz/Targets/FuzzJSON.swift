/// libFuzzer target for the JSON module: ``fuzzJSONInput(_:)`` (Bodies/) on every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzJSONInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
