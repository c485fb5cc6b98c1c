/// libFuzzer target for the app profile reader: ``fuzzPlistInput(_:)`` (Bodies/) on every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzPlistInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
