import Foundation
import JSON
import Testing

/// `run --keep-state` says where it kept each flow's daemon state (issue 51 point 5), in the
/// progress and in the JSON report, and the folder is there after the run.
@Suite struct KeepStateTests {
    @Test func keepStateSaysWhere() async throws {
        let flow = CLI.root + "/flows/seed-mam-ca-always-applied.json"
        let json = try await CLI.run(["run", flow, "--keep-state", "--json"])
        let kept = try #require(json.json["flows"]?[0]?["stateDirectory"]?.stringValue, "\(json.stdout)")
        defer { try? FileManager.default.removeItem(atPath: kept) }
        #expect(json.status == 0, "\(json.stderr)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: kept, isDirectory: &isFolder) && isFolder.boolValue, "\(kept) is gone")
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: kept)) ?? []).isEmpty, "\(kept) is empty")

        let text = try await CLI.run(["run", flow, "--keep-state"])
        let line = try #require(text.stdout.split(separator: "\n").first { $0.contains("state kept in ") }, "\(text.stdout)")
        let folder = String(line.split(separator: " ").first { $0.hasPrefix("/") } ?? "")
        defer { if !folder.isEmpty { try? FileManager.default.removeItem(atPath: folder) } }
        #expect(FileManager.default.fileExists(atPath: folder), "\(line)")

        let plain = try await CLI.run(["run", flow, "--json"])
        #expect(plain.json["flows"]?[0]?["stateDirectory"] == nil, "without --keep-state nothing is kept: \(plain.stdout)")
    }
}
