/// `compliancectl --state-dir DIR status`: the daemon options (`--socket`, `--state-dir`,
/// `--json`) may come before the command, as `status --help` and the man page show them.
/// ArgumentParser reads a command's options after its name only, so they are moved to the
/// end of the command's words (before a `--`, when there is one).
enum LeadingDaemonOptions {
    static let valued: Set<String> = ["--socket", "--state-dir"]
    static let flags: Set<String> = ["--json"]

    static func reordered(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let name = String(word.prefix { $0 != "=" })
            if flags.contains(word) || (valued.contains(name) && word.contains("=")) {
                leading.append(word)
                index += 1
            } else if valued.contains(word), index + 1 < arguments.count {
                leading += [word, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        // Daemon options and no command (`compliancectl --state-dir DIR`): as `compliancectl`
        // alone, the overview, rather than "Unknown option" for an option the command takes.
        guard index < arguments.count else { return [] }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}
