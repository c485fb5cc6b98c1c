/// Why a flow file cannot be used: names the file, the step (1-based) when one is at fault,
/// and the reason.
public struct FlowError: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    /// 1-based index of the step at fault; nil for the file or its top-level fields.
    public let step: Int?
    public let reason: String

    public init(file: String, step: Int?, reason: String) {
        self.file = file
        self.step = step
        self.reason = reason
    }

    public var description: String {
        if let step { return "\(file): step \(step): \(reason)" }
        return "\(file): \(reason)"
    }
}
