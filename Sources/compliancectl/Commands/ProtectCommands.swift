import ArgumentParser
import ControlClient
import Foundation
import JSON

/// Where a buffer command reads its input and writes its output.
struct BufferIO: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The input as text.", valueName: "text")) var text: String?
    @Option(name: .long, help: ArgumentHelp("Read the input from this file (default: standard input).", valueName: "path")) var file: String?

    func validate() throws {
        if text != nil, file != nil { throw ValidationError("give --text or --file, not both.") }
    }

    func input() throws -> [UInt8] {
        if let text { return Array(text.utf8) }
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read --file \(file).") }
            return Array(data)
        }
        return Array(FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Writes `bytes` to `output` (0600; 74 when it cannot be written) or standard output.
    static func write(_ bytes: [UInt8], to output: String?) throws {
        if let output {
            try OutputFile.write(bytes, to: output)
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }

    /// "alice@contoso.com, encrypted" / "no user, identity header only" / "not protected".
    static func describe(_ answer: JSONValue) -> String {
        if answer["protected"] == false { return "not protected data (no Intune header)" }
        let owner = answer["owner"]?.stringValue ?? "no user"
        return "owner: \(owner); " + (answer["encrypted"] == true ? "encrypted" : "identity header only, not encrypted")
    }
}

/// `compliancectl protect`: `IntuneMAMDataProtectionManager protect:identity:`.
struct ProtectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protect",
        abstract: "Protect data for an identity: encrypted for the managed account, an identity header only otherwise.",
        discussion: """
            Writes the protected bytes to standard output and the owner line to standard error; \
            with -o FILE, the bytes to FILE and "wrote FILE (N bytes): owner: UPN; encrypted" to standard \
            output. --json prints the daemon's answer (the bytes as base64) instead. Without \
            --identity the data belongs to no user.
            At most about 47 KiB of input (the control API's JSON body limit).

            Examples:
              compliancectl protect --identity alice@contoso.com --text 'plan' -o plan.protected
              compliancectl protect --identity bob@contoso.com < notes.txt > notes.protected
            """)

    @OptionGroup var daemon: DaemonOptions
    @OptionGroup var io: BufferIO
    @Option(name: .long, help: ArgumentHelp("The owner (UPN); none: no user.", valueName: "upn")) var identity: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead.", valueName: "path")) var output: String?

    func validate() throws {
        if let identity, !identity.isEmpty { try Arguments.account(identity) }
    }

    func run() async throws {
        let input = try io.input()
        let answer: JSONValue
        do {
            answer = try await daemon.client().protect(input, identity: identity)
        } catch {
            throw DaemonCall.fail(error, json: daemon.json)
        }
        if daemon.json { print(answer.encodedString(sortedKeys: false)); return }
        guard let bytes = answer["data"]?.stringValue.flatMap(ControlClient.bytes(base64:)) else { throw Exit.software }
        try BufferIO.write(bytes, to: output)
        if let output {
            // The protected bytes went to the file: the outcome is this command's output.
            Terminal.say("wrote \(output) (\(bytes.count) bytes): \(BufferIO.describe(answer))")
        } else {
            // Standard output holds the protected bytes alone.
            Terminal.warn(BufferIO.describe(answer))
        }
    }
}

/// `compliancectl unprotect`: `IntuneMAMDataProtectionManager unprotect:`.
struct UnprotectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unprotect",
        abstract: "Give back the plain content of protected data (data that is not protected comes back unchanged).",
        discussion: """
            Fails, naming the reason, for a broken header (invalid_protected_data), encrypted data
            that was modified (tampered), or data encrypted for an account whose data was wiped
            (key_gone).

            Example:
              compliancectl unprotect --file plan.protected
            """)

    @OptionGroup var daemon: DaemonOptions
    @OptionGroup var io: BufferIO
    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead.", valueName: "path")) var output: String?

    func run() async throws {
        let input = try io.input()
        let answer: JSONValue
        do {
            answer = try await daemon.client().unprotect(input)
        } catch {
            throw DaemonCall.fail(error, json: daemon.json)
        }
        if daemon.json { print(answer.encodedString(sortedKeys: false)); return }
        guard let bytes = answer["data"]?.stringValue.flatMap(ControlClient.bytes(base64:)) else { throw Exit.software }
        try BufferIO.write(bytes, to: output)
    }
}

/// `compliancectl protection-info`: `IntuneMAMDataProtectionManager protectionInfo:`.
struct ProtectionInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protection-info",
        abstract: "Show who owns protected data and whether it is encrypted.",
        discussion: """
            Reads the header only. Data without an Intune header is "not protected".

            Example:
              compliancectl protection-info --file plan.protected
            """)

    @OptionGroup var daemon: DaemonOptions
    @OptionGroup var io: BufferIO

    func run() async throws {
        let input = try io.input()
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let answer = try await client.protectionInfo(input)
            return CommandResult(json: answer, lines: [BufferIO.describe(answer)])
        }
    }
}
