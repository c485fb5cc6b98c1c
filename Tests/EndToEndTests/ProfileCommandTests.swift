import AppProfile
import Foundation
import Testing

/// `compliancectl profile lint|fix` as a user runs them: every problem printed, exit statuses,
/// files written atomically and only when asked, malformed input left untouched.
@Suite struct ProfileCommandTests {
    static let apps = CLI.root + "/mocks/fixtures/apps"

    /// Copies sample profiles into a new scratch folder.
    static func copies(_ names: String...) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try names.map { name in
            let target = folder + "/" + name
            try FileManager.default.copyItem(atPath: apps + "/" + name, toPath: target)
            return target
        }
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func lintPrintsEveryProblemOfTheBrokenSampleAsAppProfileFindsThem() async throws {
        let plist = Self.apps + "/broken-Info.plist", entitlements = Self.apps + "/broken.entitlements"
        let result = try await CLI.run(["profile", "lint", plist, "--entitlements", entitlements])
        #expect(result.status == 1, "\(result.stderr)")
        let expected = try ProfileCommands.lint(infoPlist: plist, entitlements: entitlements)
        #expect(expected.problems.count >= 18)
        #expect(Self.lines(result.stdout) == expected.humanLines)
        let kinds = Set(expected.problems.map(\.kind))
        #expect(kinds == Set(ProfileProblem.Kind.allCases).subtracting([.bundleIdentifierMissing, .capabilitiesNotStrings, .querySchemesOverLimit]), "the sample shows every kind it can")

        let alone = try await CLI.run(["profile", "lint", plist])
        #expect(Self.lines(alone.stdout) == (try ProfileCommands.lint(infoPlist: plist)).humanLines)

        let json = try await CLI.run(["profile", "lint", plist, "--entitlements", entitlements, "--json"])
        #expect(json.status == 1)
        #expect(json.json == expected.json)
    }

    @Test func aCleanProfileExitsZero() async throws {
        let result = try await CLI.run(["profile", "lint", Self.apps + "/chatr-Info.plist", "--entitlements", Self.apps + "/chatr.entitlements"])
        #expect(result.status == 0)
        #expect(result.stdout == "0 errors, 0 warnings\n")
    }

    @Test func aMalformedPlistExits65NamingTheFileAndStaysUntouched() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profile-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("Info.plist").path
        let text = "<plist><dict><key>IntuneMAMSettings</key>"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        for command in [["lint"], ["fix"], ["fix", "-o", folder.appendingPathComponent("out.plist").path]] {
            let result = try await CLI.run(["profile"] + command + [path])
            #expect(result.status == 65, "\(command)")
            #expect(result.stderr == "compliancectl: \(path): not an XML property list\n")
            #expect(result.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(text.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Info.plist"], "nothing else written")

        let json = try await CLI.run(["profile", "lint", path, "--json"])
        #expect(json.status == 65)
        #expect(json.json["error"]?["code"] == "notXMLPropertyList" && json.json["error"]?["file"]?.stringValue == path)
        let wrongType = try await CLI.run(["profile", "lint", Self.apps + "/wrongtype-Info.plist"])
        #expect(wrongType.status == 65)
        #expect(wrongType.stderr.contains("wrongtype-Info.plist: IntuneMAMSettings.ADALClientId: expected a string, found integer"))
        let missing = try await CLI.run(["profile", "lint", "/nonexistent/Info.plist"])
        #expect(missing.status == 65 && missing.stderr.hasPrefix("compliancectl: /nonexistent/Info.plist: cannot read the file"))
    }

    @Test func fixToAnOutputLeavesTheInputAlone() async throws {
        let paths = try Self.copies("broken-Info.plist")
        let before = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
        let output = (paths[0] as NSString).deletingLastPathComponent + "/fixed.plist"
        let result = try await CLI.run(["profile", "fix", paths[0], "-o", output])
        #expect(result.status == 1, "errors a person must fix remain: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) == before)
        let lines = Self.lines(result.stdout)
        #expect(lines.contains("fixed: IntuneMAMSettings.AutoEnrollOnLaunch: MAMPolicyRequired is YES but AutoEnrollOnLaunch is not"))
        #expect(lines.contains("wrote \(output)"))
        let remaining = try ProfileCommands.lint(infoPlist: output)
        #expect(Array(lines.suffix(remaining.humanLines.count)) == remaining.humanLines)
        #expect(!remaining.problems.contains { $0.kind.isFixable })
    }

    @Test func fixInPlaceThenASecondRunChangesNothing() async throws {
        let paths = try Self.copies("broken-Info.plist", "broken.entitlements")
        let first = try await CLI.run(["profile", "fix", paths[0], "--entitlements", paths[1], "--json"])
        #expect(first.status == 1)
        #expect(first.json["written"] == .array(paths.map { .string($0) }))
        #expect((first.json["fixed"]?.arrayValue?.count ?? 0) >= 9)
        let fixed = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let second = try await CLI.run(["profile", "fix", paths[0], "--entitlements", paths[1]])
        #expect(second.status == 1)
        #expect(Self.lines(second.stdout).first == "nothing to fix: no mechanical fix applies")
        #expect(!second.stdout.contains("wrote "))
        #expect(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == fixed)
        let folder = (paths[0] as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["broken-Info.plist", "broken.entitlements"])
    }

    @Test func usageErrorsExit64() async throws {
        let noFile = try await CLI.run(["profile", "lint"])
        #expect(noFile.status == 64)
        // One file given for two parts: refused before anything is read or written.
        let paths = try Self.copies("broken-Info.plist", "broken.entitlements")
        let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for (arguments, message) in [
            (["profile", "lint", paths[0], "--entitlements", paths[0]], "\(paths[0]): is the Info.plist too"),
            (["profile", "fix", paths[0], "--entitlements", paths[0]], "\(paths[0]): is the Info.plist too"),
            (["profile", "fix", paths[0], "--entitlements", paths[1], "-o", paths[1]], "\(paths[1]): is the entitlements file too"),
        ] {
            let refused = try await CLI.run(arguments)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(arguments): \(refused.status) \(refused.stderr)")
        }
        #expect(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        let help = try await CLI.run(["profile", "lint", "--help"])
        #expect(help.status == 0 && help.stdout.contains("compliancectl profile lint mocks/fixtures/apps/broken-Info.plist"))
    }
}
