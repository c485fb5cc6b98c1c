import Foundation

/// What a run gives the flows it reads, for the fields a flow leaves out (flows/README.md):
/// a flow kept in an app's own repository need not point into this checkout.
public struct FlowDefaults: Sendable {
    /// `run --app`: the Info.plist of flows that name no `app`.
    public var app: String?
    /// The run names its issuer (`--authority`, `--oidc-issuer`): no mock is started, so a
    /// flow needs no `fixture`.
    public var issuerGiven = false
    /// Installed data folders (`PREFIX/share/compliance-orchestrator`), searched for the
    /// default fixture and app after the folders above the flow.
    public var dataDirectories: [String] = []

    public init(app: String? = nil, issuerGiven: Bool = false, dataDirectories: [String] = []) {
        self.app = app
        self.issuerGiven = issuerGiven
        self.dataDirectories = dataDirectories
    }

    /// The installed data folder of a program at `executable` (`PREFIX/bin/compliancectl` →
    /// `PREFIX/share/compliance-orchestrator`), when it holds the demo fixtures.
    public static func installedData(besides executable: String) -> [String] {
        let prefix = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let data = prefix.appendingPathComponent("share/compliance-orchestrator").path
        return FileManager.default.fileExists(atPath: data + "/mocks/fixtures/contoso.json") ? [data] : []
    }
}
