import Foundation

/// The app-profile operations behind `profile lint` and `profile fix`, file paths in, reports out.
public enum ProfileCommands {
    /// `profile lint PLIST [--entitlements E]`.
    public static func lint(infoPlist: String, entitlements: String? = nil) throws(AppProfileError) -> ProfileReport {
        try refuseOneFileForBoth(infoPlist, entitlements)
        return ProfileReport(problems: try AppProfile.load(infoPlist: infoPlist, entitlements: entitlements).lint())
    }

    /// The Info.plist given as the entitlements too would be read (and fixed) as both.
    private static func refuseOneFileForBoth(_ infoPlist: String, _ entitlements: String?) throws(AppProfileError) {
        if let entitlements, samePath(infoPlist, entitlements) {
            throw AppProfileError(code: .sameFile, file: entitlements, message: "is the Info.plist too: give the app's entitlements file")
        }
    }

    /// `profile fix PLIST [--entitlements E] [-o OUT]`.
    ///
    /// Reads both files first; a malformed file stops the command before anything is written.
    /// The fixed Info.plist goes to `output` (always written) or, without it, replaces `infoPlist`
    /// when it changed. Changed entitlements replace their file. The files are written as every
    /// `-o` is (``PlistFile/write(_:)``), both staged before either is replaced: a failure to
    /// write one leaves both as they were.
    public static func fix(infoPlist: String, entitlements: String? = nil, output: String? = nil) throws(AppProfileError) -> ProfileFixReport {
        if let output, let entitlements, samePath(output, entitlements) {
            throw AppProfileError(code: .sameFile, file: output, message: "is the entitlements file too: the fixed Info.plist would overwrite it")
        }
        try refuseOneFileForBoth(infoPlist, entitlements)
        let profile = try AppProfile.load(infoPlist: infoPlist, entitlements: entitlements)
        let fixed = profile.fixed()
        var files: [(root: [String: PlistValue], path: String)] = []
        if let output {
            files.append((fixed.info, output))
        } else if fixed.info != profile.info {
            files.append((fixed.info, infoPlist))
        }
        if let entitlements, let fixedEntitlements = fixed.entitlements, fixedEntitlements != profile.entitlements {
            files.append((fixedEntitlements, entitlements))
        }
        try PlistFile.write(files)
        let written = files.map(\.path)
        let remaining = fixed.lint()
        let before = profile.lint()
        return ProfileFixReport(
            // What fix repaired: a problem it cannot repair may read differently once the rest is
            // fixed (the query list's length counts the twins fix added), but it is not fixed.
            fixed: before.filter { $0.kind.isFixable && !remaining.contains($0) },
            remaining: ProfileReport(problems: remaining),
            written: written)
    }

    /// Whether two paths name the same file (the same device and inode once both exist, else
    /// the same text).
    private static func samePath(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0 { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
        return first == second
    }
}
