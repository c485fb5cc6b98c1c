/// ComplianceCore: pure state machines and protocol rules (no I/O). See README.md in this folder.
public enum ComplianceCore: Sendable {
    /// The client capability that declares App Protection CA support (`xms_cc` value).
    public static let protectionCapability = "protapp"
}
