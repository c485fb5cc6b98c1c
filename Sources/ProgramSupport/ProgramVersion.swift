/// The one version of the orchestrator's programs (`complianced`, `compliancectl`, `mockauth`),
/// printed by each one's `--version`. Raise it with every release of the three.
public enum ProgramVersion {
    /// Semantic version of this source tree.
    public static let current = "0.5.0"
}
