import ArgumentParser
import ControlClient
import JSON

extension DataCommand {
    /// `compliancectl data info ACCOUNT NAME`: the file's owner as its header names it
    /// (`IntuneMAMFileProtectionManager protectionInfo:`) and whether it is encrypted.
    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a file's owner (from its header) and whether it is encrypted.",
            discussion: "Example:\n  compliancectl data info alice@contoso.com notes.txt")

        @OptionGroup var daemon: DaemonOptions
        @OptionGroup var file: AccountFile

        func run() async throws {
            let name = file.name
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.fileProtectionInfo(file.account, name: name)
                let owner = answer["owner"]?.stringValue ?? "?"
                let source = answer["ownerInHeader"] == true ? "" : " (written before files carried an owner header: its directory's owner)"
                let mode = answer["encrypted"] == true ? "encrypted" : "not encrypted"
                return CommandResult(json: answer, lines: ["\(name): owner \(owner)\(source), \(mode)"])
            }
        }
    }
}
