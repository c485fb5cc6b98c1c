import Foundation
import JSON
import LocalServers
import Testing

/// `dist/` is what an operator installs: the systemd units, man pages and shell completions.
/// They must say what the programs built from this tree do (`./run.sh dist` regenerates them).
@Suite struct DistFilesTests {
    static let programs = ["complianced", "compliancectl", "mockauth"]
    static let dist = CLI.root + "/dist"

    @Test(arguments: programs)
    func completionScriptsAreCurrent(program: String) async throws {
        for (shell, file) in [("bash", "bash/\(program)"), ("zsh", "zsh/_\(program)"), ("fish", "fish/\(program).fish")] {
            let generated = try await Command.run(ChildServer.executable(program), ["--generate-completion-script", shell], timeout: .seconds(60))
            #expect(generated.status == 0)
            let committed = try String(contentsOfFile: "\(Self.dist)/completions/\(file)", encoding: .utf8)
            #expect(committed == generated.stdout, "dist/completions/\(file) is stale: run ./run.sh dist")
        }
    }

    /// Every option and subcommand the program has (from `--experimental-dump-help`) is in its
    /// man page, and nothing the page documents is gone from the program.
    @Test(arguments: programs)
    func manPageDocumentsEveryOption(program: String) async throws {
        let dump = try await Command.run(ChildServer.executable(program), ["--experimental-dump-help"], timeout: .seconds(60))
        let help = try JSONValue.parse(dump.stdout)
        let page = try String(contentsOfFile: "\(Self.dist)/man/man1/\(program).1", encoding: .utf8)
        #expect(page.contains(".Dt \(program.uppercased()) 1"))
        var documented: Set<String> = []
        for line in page.split(separator: "\n") {
            // `.It Fl -state-dir Ar dir`, or with a short name `.It Fl o , -output Ar path`.
            for match in line.matches(of: /Fl (?:[a-zA-Z0-9] , )?-([a-z0-9-]+)/) { documented.insert(String(match.1)) }
        }
        var present: Set<String> = ["help", "version", "generate-completion-script", "experimental-dump-help"]
        func walk(_ command: JSONValue) {
            if let abstract = command["abstract"]?.stringValue, !abstract.isEmpty {
                #expect(page.contains(abstract), "the man page lacks \(command["commandName"] ?? "?")'s abstract: run ./run.sh dist")
            }
            for argument in command["arguments"]?.arrayValue ?? [] {
                for name in argument["names"]?.arrayValue ?? [] where name["kind"] == "long" {
                    guard let long = name["name"]?.stringValue else { continue }
                    present.insert(long)
                    #expect(documented.contains(long), "--\(long) is not in dist/man/man1/\(program).1: run ./run.sh dist")
                }
            }
            // The generated `help` subcommand is left out of the pages (dist/man/tidy.sh).
            for subcommand in command["subcommands"]?.arrayValue ?? [] where subcommand["commandName"] != "help" { walk(subcommand) }
        }
        walk(try #require(help["command"]))
        #expect(documented.subtracting(present).isEmpty, "the man page documents options the program no longer has: \(documented.subtracting(present))")
    }

    /// `man --warnings -l` prints nothing for the page; every line of each command's discussion
    /// is on it whole (the generator drops characters outside ASCII: a cut-off sentence); it
    /// lists no `help` subcommand, and no `subcommand` for a program that has none.
    @Test(arguments: programs)
    func manPageRendersWithoutWarningsAndWhole(program: String) async throws {
        let path = "\(Self.dist)/man/man1/\(program).1"
        let man = try await Command.run(
            "/usr/bin/man", ["--warnings", "-l", path], timeout: .seconds(60),
            environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANPAGER": "cat"])
        #expect(man.status == 0 && man.stderr.isEmpty, "man --warnings -l \(path):\n\(man.stderr)")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let dump = try await Command.run(ChildServer.executable(program), ["--experimental-dump-help"], timeout: .seconds(60))
        var subcommands: [String] = []
        func walk(_ command: JSONValue) {
            for line in (command["discussion"]?.stringValue ?? "").split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let text = line.replacingOccurrences(of: "\\", with: "\\e")
                let ascii = line.unicodeScalars.allSatisfy(\.isASCII)
                #expect(ascii, "\(program) \(command["commandName"] ?? "?"): not ASCII, which the page loses: \(line)")
                #expect(page.contains(text), "\(program) \(command["commandName"] ?? "?"): the page lacks \"\(line)\": run ./run.sh dist")
            }
            for subcommand in command["subcommands"]?.arrayValue ?? [] {
                subcommands.append(subcommand["commandName"]?.stringValue ?? "?")
                walk(subcommand)
            }
        }
        walk(try #require(JSONValue.parse(dump.stdout)["command"]))
        #expect(!page.contains(".It Em help"), "the generated help subcommand: run ./run.sh dist")
        if subcommands.allSatisfy({ $0 == "help" }) {
            #expect(!page.contains(".Ar subcommand"), "\(program) has no subcommand: run ./run.sh dist")
        }
        if program == "mockauth" {
            #expect(page.contains("Defaults: --host 127.0.0.1"), "mockauth's page says its defaults")
        }
    }

    /// What each unit must say beyond the shared hardening.
    static let unitDirectives = [
        "complianced": [
            "Type=notify", "NotifyAccess=main", "WatchdogSec=", "StateDirectory=complianced",
            "EnvironmentFile=-/etc/default/complianced", "--state-dir ${STATE_DIRECTORY} $COMPLIANCED_OPTIONS",
        ],
        "mockauth": ["Type=exec", "EnvironmentFile=-/etc/default/mockauth", "/usr/local/bin/mockauth serve $MOCKAUTH_OPTIONS"],
    ]

    @Test(arguments: ["complianced", "mockauth"])
    func systemdUnitIsValidAndHardened(program: String) async throws {
        let unit = try String(contentsOfFile: "\(Self.dist)/systemd/\(program).service", encoding: .utf8)
        for directive in (Self.unitDirectives[program] ?? []) + [
            "ProtectSystem=strict", "NoNewPrivileges=yes", "DynamicUser=yes",
            "PrivateTmp=yes", "ProtectHome=yes", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "CapabilityBoundingSet=",
        ] {
            #expect(unit.contains(directive), "\(program).service lacks \(directive)")
        }
        // systemd's own check, on a copy whose ExecStart is the binary built here.
        let analyze = "/usr/bin/systemd-analyze"
        try #require(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze (Debian's systemd) is needed to check the unit")
        let directory = NSTemporaryDirectory() + "unit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/\(program).service"
        try unit.replacingOccurrences(of: "/usr/local/bin/\(program)", with: ChildServer.executable(program))
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let verify = try await Command.run(analyze, ["verify", "--man=no", copy], timeout: .seconds(60))
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.stdout)\(verify.stderr)")
        #expect(verify.stderr.isEmpty, "systemd-analyze verify warns: \(verify.stderr)")
        let security = try await Command.run(analyze, ["security", "--offline=yes", "--threshold=20", copy], timeout: .seconds(60))
        #expect(security.status == 0, "exposure above 2.0: \(security.stdout.split(separator: "\n").last ?? "")")
    }
}
