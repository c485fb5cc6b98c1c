import ComplianceCore
import Foundation
import Testing
@testable import Orchestrator

@Suite struct VaultTests {
    @Test func plainAndEncryptedFilesRoundTripWithOwnerOnlyModes() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let plain = Array("hello, managed world".utf8)
            let secret = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            try await vault.put(alice, name: "notes.txt", bytes: plain, encrypt: false)
            try await vault.put(alice, name: "report.pdf", bytes: secret, encrypt: true)
            #expect(try await vault.get(alice, name: "notes.txt") == plain)
            #expect(try await vault.get(try! AccountID("alice@CONTOSO.com"), name: "report.pdf") == secret)
            #expect(try await vault.list(alice) == ["notes.txt", "report.pdf"])

            let directory = vault.directory(for: alice)
            #expect(!directory.lowercased().contains("alice"), "the UPN never appears in a path")
            #expect(Vault.directoryName(for: alice).count == 64)
            #expect(try permissions(root + "/vault") == 0o700)
            #expect(try permissions(directory) == 0o700)
            for name in ["notes.txt", "report.pdf", ".key", ".manifest"] {
                #expect(try permissions(directory + "/" + name) == 0o600, "mode of \(name)")
            }
            let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/report.pdf")))
            // Version 2: magic, version, mode, the owner's length and key, then the payload.
            let owner = Array("alice@contoso.com".utf8)
            let header = Array("CVLT".utf8) + [2, 1, 0, UInt8(owner.count)] + owner
            #expect(Array(onDisk.prefix(header.count)) == header)
            #expect(onDisk.count == header.count + 12 + secret.count + 16)
            #expect(!onDisk.dropFirst(header.count).starts(with: secret.prefix(32)), "stored sealed, not in clear")
            let plainOnDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/notes.txt")))
            #expect(Array(plainOnDisk.prefix(header.count)) == Array("CVLT".utf8) + [2, 0, 0, UInt8(owner.count)] + owner)
            #expect(Array(plainOnDisk.dropFirst(header.count)) == plain)

            let manifest = try #require(try await vault.manifest(for: alice))
            #expect(manifest.account.upn == "Alice@Contoso.com")
            #expect(manifest.files["report.pdf"]?.encrypted == true && manifest.files["notes.txt"]?.encrypted == false)
            #expect(manifest.files["report.pdf"]?.size == secret.count)

            try await vault.put(alice, name: "notes.txt", bytes: [1, 2, 3], encrypt: true)
            #expect(try await vault.get(alice, name: "notes.txt") == [1, 2, 3])
            #expect(try await vault.remove(alice, name: "notes.txt"))
            #expect(try await !vault.remove(alice, name: "notes.txt"))
            #expect(try await vault.list(alice) == ["report.pdf"])
            #expect(try await vault.manifest(for: alice)?.files.keys.sorted() == ["report.pdf"])
            let missing = await #expect(throws: VaultError.self) { try await vault.get(alice, name: "notes.txt") }
            #expect(missing?.code == .notFound)
            #expect(try await vault.list(bob).isEmpty)
        }
    }

    @Test func tamperingIsDetected() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            try await vault.put(alice, name: "a.bin", bytes: Array("top secret".utf8), encrypt: true)
            try await vault.put(alice, name: "b.bin", bytes: Array("other".utf8), encrypt: true)
            let path = vault.directory(for: alice) + "/a.bin"
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[bytes.count / 2] ^= 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let flipped = await #expect(throws: VaultError.self) { try await vault.get(alice, name: "a.bin") }
            #expect(flipped?.code == .tampered)
            #expect(flipped?.name == "a.bin")

            // A sealed file moved under another name fails too: the name is authenticated.
            let directory = vault.directory(for: alice)
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: directory + "/b.bin", toPath: path)
            #expect(try await vault.get(alice, name: "b.bin") == Array("other".utf8))
            let moved = await #expect(throws: VaultError.self) { try await vault.get(alice, name: "a.bin") }
            #expect(moved?.code == .tampered)

            try Data("no header at all".utf8).write(to: URL(fileURLWithPath: path))
            #expect(await #expect(throws: VaultError.self) { try await vault.get(alice, name: "a.bin") }?.code == .badFormat)

            try FileManager.default.removeItem(atPath: directory + "/.key")
            #expect(await #expect(throws: VaultError.self) { try await vault.get(alice, name: "b.bin") }?.code == .keyMissing)
        }
    }

    @Test(arguments: ["../x", "a/b", ".hidden", "..", ".", "", "nul\u{0}byte", String(repeating: "n", count: 300), "/etc/passwd", "..manifest"])
    func hostileNamesAreRejectedAndNothingIsWritten(name: String) async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let error = await #expect(throws: VaultError.self) {
                try await vault.put(alice, name: name, bytes: [1], encrypt: false)
            }
            #expect(error?.code == .invalidName)
            #expect(error?.name == name)
            #expect(error?.message.isEmpty == false)
            #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["vault"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/vault").isEmpty)
            for operation in [{ _ = try await vault.get(alice, name: name) }, { _ = try await vault.remove(alice, name: name) }] as [@Sendable () async throws -> Void] {
                #expect(await #expect(throws: VaultError.self) { try await operation() }?.code == .invalidName)
            }
        }
    }

    @Test func nameLimitIsInUTF8Bytes() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let fits = String(repeating: "é", count: 127)  // 254 bytes
            try await vault.put(alice, name: fits, bytes: [7], encrypt: true)
            #expect(try await vault.get(alice, name: fits) == [7])
            let error = await #expect(throws: VaultError.self) {
                try await vault.put(alice, name: String(repeating: "é", count: 128), bytes: [7], encrypt: false)
            }
            #expect(error?.message.contains("256") == true)
        }
    }
}
