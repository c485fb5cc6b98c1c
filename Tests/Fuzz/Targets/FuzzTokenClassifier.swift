/// libFuzzer target for the token response classifier: ``fuzzTokenClassifierInput(_:)``
/// (Bodies/) on every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenClassifier(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzTokenClassifierInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
