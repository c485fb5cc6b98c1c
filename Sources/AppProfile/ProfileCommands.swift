/// The app-profile operations behind `profile lint` and `profile fix`, file paths in, reports out.
public enum ProfileCommands {
    /// `profile lint PLIST [--entitlements E]`.
    public static func lint(infoPlist: String, entitlements: String? = nil) throws(AppProfileError) -> ProfileReport {
        ProfileReport(problems: try AppProfile.load(infoPlist: infoPlist, entitlements: entitlements).lint())
    }

    /// `profile fix PLIST [--entitlements E] [-o OUT]`.
    ///
    /// Reads both files first; a malformed file stops the command before anything is written.
    /// The fixed Info.plist goes to `output` (always written) or, without it, replaces `infoPlist`
    /// when it changed. Changed entitlements replace their file. Every write is atomic.
    public static func fix(infoPlist: String, entitlements: String? = nil, output: String? = nil) throws(AppProfileError) -> ProfileFixReport {
        let profile = try AppProfile.load(infoPlist: infoPlist, entitlements: entitlements)
        let fixed = profile.fixed()
        var written: [String] = []
        if let output {
            try PlistFile.write(fixed.info, to: output)
            written.append(output)
        } else if fixed.info != profile.info {
            try PlistFile.write(fixed.info, to: infoPlist)
            written.append(infoPlist)
        }
        if let entitlements, let fixedEntitlements = fixed.entitlements, fixedEntitlements != profile.entitlements {
            try PlistFile.write(fixedEntitlements, to: entitlements)
            written.append(entitlements)
        }
        let remaining = fixed.lint()
        let before = profile.lint()
        return ProfileFixReport(
            fixed: before.filter { !remaining.contains($0) },
            remaining: ProfileReport(problems: remaining),
            written: written)
    }
}
