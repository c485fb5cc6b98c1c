import ArgumentParser
import ControlClient
import Foundation
import JSON

/// `compliancectl data put|get|list|rm`: an account's managed files in the daemon's vault.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Store, read, list and remove an account's managed files (encrypted when the policy requires it).",
        discussion: """
            Examples:
              compliancectl data put alice@contoso.com notes.txt --text 'quarterly plan'
              compliancectl data put alice@contoso.com report.pdf --file ./report.pdf
              compliancectl data get alice@contoso.com notes.txt
              compliancectl data list alice@contoso.com
              compliancectl data info alice@contoso.com notes.txt
            """,
        subcommands: [Put.self, Get.self, List.self, Info.self, Remove.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a file for an account (from --text, --file or standard input).",
            discussion: "Example:\n  echo hello | compliancectl data put bob@contoso.com hello.txt")

        @OptionGroup var daemon: DaemonOptions
        @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account")) var account: String
        @Argument(help: ArgumentHelp("File name: letters, digits, '.', '_', '-'; at most 128 bytes.", valueName: "name")) var name: String
        @Option(name: .long, help: ArgumentHelp("The content as text.", valueName: "text")) var text: String?
        @Option(name: .long, help: ArgumentHelp("Read the content from this file.", valueName: "path")) var file: String?

        func validate() throws {
            try Arguments.account(account)
            if text != nil, file != nil { throw ValidationError("give --text or --file, not both.") }
        }

        func run() async throws {
            let bytes: [UInt8]
            if let text {
                bytes = Array(text.utf8)
            } else if let file {
                guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read --file \(file).") }
                bytes = Array(data)
            } else {
                bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
            }
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.putData(account, name: name, bytes: bytes)
                let encrypted = answer["encrypted"]?.boolValue == true
                return CommandResult(json: answer, lines: ["stored \(name) for \(account): \(bytes.count) bytes\(encrypted ? ", encrypted" : "")"])
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an account's file to standard output (or -o FILE).",
            discussion: "Example:\n  compliancectl data get bob@contoso.com hello.txt -o /tmp/hello.txt")

        @OptionGroup var daemon: DaemonOptions
        @OptionGroup var file: AccountFile
        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead.", valueName: "path")) var output: String?

        func run() async throws {
            let bytes: [UInt8]
            do {
                bytes = try await daemon.client().getData(file.account, name: file.name)
            } catch {
                throw DaemonCall.fail(error, json: daemon.json)
            }
            if let output {
                try OutputFile.write(bytes, to: output)
            } else {
                FileHandle.standardOutput.write(Data(bytes))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List an account's files.", discussion: "Example:\n  compliancectl data list alice@contoso.com")

        @OptionGroup var daemon: DaemonOptions
        @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account")) var account: String

        func validate() throws { try Arguments.account(account) }

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.listData(account)
                let files = answer["files"]?.arrayValue ?? []
                var table = TextTable(["NAME", "SIZE", "ENCRYPTED", "OWNER"])
                for file in files {
                    table.add([
                        file["name"]?.stringValue ?? "?", "\(file["size"]?.intValue ?? 0)", file["encrypted"]?.boolValue == true ? "yes" : "no",
                        file["owner"]?.stringValue ?? "?",
                    ])
                }
                return CommandResult(json: answer, lines: [files.isEmpty ? "no files for \(account)" : table.rendered])
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove an account's file.", discussion: "Example:\n  compliancectl data rm alice@contoso.com notes.txt")

        @OptionGroup var daemon: DaemonOptions
        @OptionGroup var file: AccountFile

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.removeData(file.account, name: file.name)
                let removed = answer["removed"]?.boolValue == true
                return CommandResult(json: answer, lines: [removed ? "removed \(file.name)" : "\(file.name) was not there"], succeeded: removed)
            }
        }
    }
}

/// The `ACCOUNT NAME` arguments of the data commands that name one file.
struct AccountFile: ParsableArguments {
    @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account")) var account: String
    @Argument(help: ArgumentHelp("File name.", valueName: "name")) var name: String

    func validate() throws { try Arguments.account(account) }
}
