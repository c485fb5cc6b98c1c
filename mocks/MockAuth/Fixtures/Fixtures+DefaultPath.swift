import Foundation

extension Fixtures {
    /// `mockauth serve`'s default `--fixtures`: the demo tenant, relative to the working directory.
    public static let defaultPath = "mocks/fixtures/contoso.json"

    /// Where an installed mockauth's data lives, relative to its prefix: the Debian package puts
    /// the demo tenant in `/usr/share/compliance-orchestrator/mocks/fixtures/contoso.json` beside
    /// `/usr/bin/mockauth`, the tarball in `PREFIX/share/…` beside `PREFIX/bin/mockauth`.
    public static let installedDataDirectory = "share/compliance-orchestrator"

    /// Where the default fixtures are looked for, in order: ``defaultPath`` in the working
    /// directory (a checkout), the installed copy
    /// (`PREFIX/share/compliance-orchestrator/mocks/fixtures/contoso.json` for an `executable` in
    /// `PREFIX/bin`), and `checkout`, the copy in the source tree it was built from.
    public static func defaultCandidates(executable: String, checkout: String) -> [String] {
        let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
        let installed = prefix.appendingPathComponent(installedDataDirectory).appendingPathComponent(defaultPath).path
        return [defaultPath, installed, checkout]
    }

    /// The file `--fixtures` names. A path other than ``defaultPath`` is taken as given; the
    /// default is the first of ``defaultCandidates(executable:checkout:)`` that exists, or
    /// ``defaultPath`` itself when none does.
    public static func resolve(
        _ path: String, executable: String, checkout: String,
        exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> String {
        guard path == defaultPath else { return path }
        return defaultCandidates(executable: executable, checkout: checkout).first(where: exists) ?? defaultPath
    }
}
