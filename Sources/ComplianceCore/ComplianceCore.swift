/// ComplianceCore: pure state machines and protocol rules (no I/O). See README.md in this folder.
public enum ComplianceCore: Sendable {
    /// The client capability that declares App Protection CA support (`xms_cc` value).
    public static let protectionCapability = "protapp"

    /// True when `capabilities` declare App Protection CA support: a value equal to `protapp`
    /// ignoring case. The SDK guide spells it `protapp` in its claims and Objective-C samples and
    /// `ProtApp` in its Swift sample; Entra answers both with 53005 (apps configured like the
    /// Swift sample are remediated, ms-intune-app-sdk-ios#353), so the value's case does not
    /// matter here, in the mock and in the profile lint alike. Values are sent as declared.
    public static func declaresProtection(_ capabilities: some Sequence<String>) -> Bool {
        capabilities.contains { $0.lowercased() == protectionCapability }
    }

    /// The client capability that declares the app handles claims challenges (continuous access
    /// evaluation): resources may refuse its tokens early with `insufficient_claims`.
    public static let continuousAccessCapability = "cp1"

    /// True when `capabilities` declare `cp1`, ignoring case as Entra does.
    public static func declaresContinuousAccess(_ capabilities: some Sequence<String>) -> Bool {
        capabilities.contains { $0.lowercased() == continuousAccessCapability }
    }
}
