import ComplianceCore
import Crypto
import Foundation
import Testing
@testable import Orchestrator

/// File owners, files written before owner headers, re-protection, and protected buffers,
/// against a real temporary directory.
@Suite struct VaultProtectionTests {
    func read(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }
    func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    @Test func everyFileNamesItsOwnerEncryptedOrNot() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            try await vault.put(alice, name: "secret.txt", bytes: Array("s".utf8), encrypt: true)
            try await vault.put(bob, name: "notes.txt", bytes: Array("n".utf8), encrypt: false)
            let sealed = try await vault.fileProtection(try AccountID("ALICE@contoso.com"), name: "secret.txt")
            #expect(sealed.owner == alice && sealed.mode == .encrypted && sealed.ownerInHeader)
            let plain = try await vault.fileProtection(bob, name: "notes.txt")
            #expect(plain.owner == bob && plain.mode == .identityHeader && plain.ownerInHeader)
            let missing = await #expect(throws: VaultError.self) { try await vault.fileProtection(bob, name: "other.txt") }
            #expect(missing?.code == .notFound)
        }
    }

    @Test func theOwnerIsReadFromTheHeaderAlone() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let big = [UInt8](repeating: 7, count: 300_000)
            try await vault.put(alice, name: "big.bin", bytes: big, encrypt: true)
            #expect(try await vault.fileProtection(alice, name: "big.bin").mode == .encrypted)
            let path = vault.directory(for: alice) + "/big.bin"
            #expect(try VaultFiles.read(path, limit: VaultFormat.maxHeaderCount)?.count == VaultFormat.maxHeaderCount)
            #expect(try VaultFiles.read(path, limit: 5) == Array("CVLT".utf8) + [2])
            #expect(try VaultFiles.read(path)?.count == (try read(path)).count)
            #expect(try await vault.get(alice, name: "big.bin") == big)
        }
    }

    @Test func filesWrittenBeforeOwnerHeadersAreStillRead() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            // A version-2 file creates the directory, manifest and key; then version-1 files are
            // laid beside it as the previous release wrote them.
            try await vault.put(alice, name: "new.txt", bytes: [1], encrypt: true)
            let directory = vault.directory(for: alice)
            try write(Array("CVLT".utf8) + [1, 0] + Array("old plain".utf8), directory + "/old.txt")
            let key = try #require(VaultFormat.key(fromFile: try read(directory + "/.key")))
            let legacyHeader = Array("CVLT".utf8) + [1, 1]
            let box = try AES.GCM.seal(Array("old secret".utf8), using: key, authenticating: legacyHeader + Array("old.bin".utf8))
            try write(legacyHeader + Array(box.combined!), directory + "/old.bin")

            #expect(try await vault.get(alice, name: "old.txt") == Array("old plain".utf8))
            #expect(try await vault.get(alice, name: "old.bin") == Array("old secret".utf8))
            let old = try await vault.fileProtection(alice, name: "old.bin")
            #expect(old.owner == alice && old.mode == .encrypted && !old.ownerInHeader)
            #expect(try await vault.fileProtection(alice, name: "old.txt").mode == .identityHeader)

            // Re-protection rewrites an old plain file in the new format, content unchanged.
            #expect(try await vault.encryptFiles(alice, names: ["old.txt"]) == ["old.txt"])
            #expect(try await vault.fileProtection(alice, name: "old.txt") == .init(owner: alice, mode: .encrypted, ownerInHeader: true))
            #expect(try await vault.get(alice, name: "old.txt") == Array("old plain".utf8))
        }
    }

    @Test func aFileNamingAnotherOwnerIsRefused() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            try await vault.put(bob, name: "notes.txt", bytes: Array("bob's".utf8), encrypt: false)
            try await vault.put(alice, name: "mine.txt", bytes: [1], encrypt: false)
            // bob's plain file copied into alice's directory: its header names bob.
            try FileManager.default.copyItem(atPath: vault.directory(for: bob) + "/notes.txt", toPath: vault.directory(for: alice) + "/notes.txt")
            let read = await #expect(throws: VaultError.self) { try await vault.get(alice, name: "notes.txt") }
            #expect(read?.code == .badFormat)
            #expect(read?.message.contains("bob@contoso.com") == true)
            #expect(await #expect(throws: VaultError.self) { try await vault.fileProtection(alice, name: "notes.txt") }?.code == .badFormat)
            // Listing skips it rather than failing the account's other files.
            #expect(try await vault.fileProtections(alice).keys.sorted() == ["mine.txt"])
        }
    }

    @Test func encryptFilesIsAtomicPerFileAndFinishesAnInterruptedRun() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            for name in ["a.txt", "b.txt", "c.txt"] { try await vault.put(alice, name: name, bytes: Array(name.utf8), encrypt: false) }
            try await vault.put(bob, name: "b.txt", bytes: Array("bob".utf8), encrypt: false)
            // An interrupted run: a.txt was rewritten sealed, the manifest not updated yet.
            let directory = vault.directory(for: alice)
            let key = try await vault.loadKey(alice, directory: directory, create: true)
            try VaultFiles.atomicWrite(try VaultFormat.seal(Array("a.txt".utf8), name: "a.txt", owner: alice, key: key), directory: directory, name: "a.txt")
            #expect(try await vault.manifest(for: alice)?.files["a.txt"]?.encrypted == false)

            let modes = try await vault.fileProtections(alice).mapValues(\.mode)
            #expect(modes == ["a.txt": .encrypted, "b.txt": .identityHeader, "c.txt": .identityHeader])
            #expect(try await vault.encryptFiles(alice, names: ["b.txt", "c.txt", "gone.txt"]) == ["b.txt", "c.txt"])
            let manifest = try #require(try await vault.manifest(for: alice))
            let plainInManifest = manifest.files.filter { !$0.value.encrypted }.keys.sorted()
            #expect(plainInManifest.isEmpty, "the manifest follows every file's header")
            for name in ["a.txt", "b.txt", "c.txt"] { #expect(try await vault.get(alice, name: name) == Array(name.utf8)) }
            #expect(try await vault.encryptFiles(alice, names: ["a.txt", "b.txt"]).isEmpty, "already encrypted: nothing to do")
            let bobs = try await vault.fileProtection(bob, name: "b.txt")
            #expect(bobs.mode == .identityHeader, "another account is not touched")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".tmp-") }
            #expect(leftovers.isEmpty)

            // A wiped account has nothing to encrypt, and no directory is created for it.
            try await vault.wipe(alice)
            #expect(try await vault.encryptFiles(alice, names: ["a.txt"]).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory))
        }
    }

    @Test func buffersAreEncryptedOnlyForTheManagedMode() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let text = Array("quarterly numbers".utf8)
            let sealed = try await vault.protect(text, owner: alice, mode: .encrypted)
            let headerOnly = try await vault.protect(text, owner: bob, mode: .identityHeader)
            let nobody = try await vault.protect(text, owner: nil, mode: .identityHeader)
            #expect(!sealed.contains(subsequence: text))
            #expect(Array(headerOnly.suffix(text.count)) == text)
            #expect(Array(nobody) == Array("CPRT".utf8) + [2, 0, 0, 0] + text)

            #expect(try await vault.protectionInfo(sealed) == .init(owner: alice, mode: .encrypted))
            #expect(try await vault.protectionInfo(headerOnly) == .init(owner: bob, mode: .identityHeader))
            #expect(try await vault.protectionInfo(nobody) == .init(owner: nil, mode: .identityHeader))
            for buffer in [sealed, headerOnly, nobody] { #expect(try await vault.unprotect(buffer) == text) }

            // Not protected data: unchanged, and "not protected".
            #expect(try await vault.unprotect(text) == text)
            #expect(try await vault.protectionInfo(text) == nil)
            #expect(try await vault.unprotect([]) == [])
        }
    }

    @Test func brokenTamperedAndOrphanedBuffersAreRefusedByName() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let sealed = try await vault.protect(Array("secret".utf8), owner: alice, mode: .encrypted)
            var flipped = sealed
            flipped[flipped.count - 1] ^= 1
            #expect(await #expect(throws: VaultError.self) { try await vault.unprotect(flipped) }?.code == .tampered)
            // The owner rewritten to bob in the header: bob has no key.
            let cases: [([UInt8], String)] = [
                (Array("CPRT".utf8), "cut short"),
                (Array("CPRT".utf8) + [7, 0, 0, 0], "version 7"),
                (Array("CPRT".utf8) + [1, 5, 0, 0], "mode 5"),
                (Array("CPRT".utf8) + [1, 1, 0, 0], "empty"),
                (Array("CPRT".utf8) + [1, 0, 0, 9] + Array("a@b".utf8), "only 3 follow"),
                (Array("CPRT".utf8) + [1, 0, 0, 3] + [0xFF, 0xFE, 0x41], "not UTF-8"),
                (Array("CPRT".utf8) + [1, 0, 0, 5] + Array("Bob@X".utf8), "normalised"),
                // NFD (e + combining acute) where the key is NFC: refused like upper case.
                (Array("CPRT".utf8) + [1, 0, 0, 10] + Array("jose\u{301}@x.y".utf8), "normalised"),
                (Array("CPRT".utf8) + [1, 0, 0x10, 0x01], "at most 1024"),
                (Array("CPRT".utf8) + [2, 1, 0, 3] + Array("a@b".utf8) + [1, 2, 3], "inside its key id"),
            ]
            for (bytes, problem) in cases {
                let error = await #expect(throws: VaultError.self) { try await vault.unprotect(bytes) }
                #expect(error?.code == .badFormat, "\(problem)")
                #expect(error?.message.contains(problem) == true, "\(error?.message ?? "") should say \(problem)")
                #expect(await #expect(throws: VaultError.self) { try await vault.protectionInfo(bytes) }?.code == .badFormat)
            }
            // Wiped: the key is gone with the account's data.
            try await vault.wipe(alice)
            let gone = await #expect(throws: VaultError.self) { try await vault.unprotect(sealed) }
            #expect(gone?.code == .keyMissing)
            #expect(gone?.message.contains("alice@contoso.com") == true)
            #expect(try await vault.protectionInfo(sealed) == .init(owner: alice, mode: .encrypted), "the header stays readable")
            #expect(!FileManager.default.fileExists(atPath: vault.directory(for: alice)), "unprotect creates nothing")
        }
    }
}

/// The key id in encrypted buffers (format version 2): a changed owner header is told from a
/// key that is gone, and version-1 buffers still read.
@Suite struct VaultBufferKeyIDTests {
    /// `buffer` with its owner header replaced by `owner` (same length or not).
    static func reowned(_ buffer: [UInt8], to owner: AccountID) -> [UInt8] {
        let length = Int(buffer[6]) << 8 | Int(buffer[7])
        let ownerBytes = Array(owner.key.utf8)
        return Array(buffer[0..<6]) + [UInt8(ownerBytes.count >> 8), UInt8(ownerBytes.count & 0xFF)] + ownerBytes + Array(buffer[(8 + length)...])
    }

    @Test func aChangedOwnerHeaderIsTamperedWhetherOrNotTheNamedOwnerHasAKey() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let sealed = try await vault.protect(Array("alice's secret".utf8), owner: alice, mode: .encrypted)
            let toBob = Self.reowned(sealed, to: bob)
            #expect(try await vault.protectionInfo(toBob)?.owner == bob)
            let keyless = await #expect(throws: VaultError.self) { try await vault.unprotect(toBob) }
            #expect(keyless?.code == .tampered, "bob has no key; alice's key made it: \(keyless?.message ?? "")")
            _ = try await vault.protect([1], owner: bob, mode: .encrypted)
            #expect(await #expect(throws: VaultError.self) { try await vault.unprotect(toBob) }?.code == .tampered)
            #expect(try await vault.unprotect(sealed) == Array("alice's secret".utf8))
        }
    }

    @Test func aBufferFromBeforeAWipeIsKeyGoneAfterTheOwnerGetsANewKey() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let old = try await vault.protect(Array("before".utf8), owner: alice, mode: .encrypted)
            try await vault.wipe(alice)
            let new = try await vault.protect(Array("after".utf8), owner: alice, mode: .encrypted)
            let error = await #expect(throws: VaultError.self) { try await vault.unprotect(old) }
            #expect(error?.code == .keyMissing, "the key it was made under is gone: \(error?.message ?? "")")
            #expect(error?.message.contains("wiped") == true)
            #expect(try await vault.unprotect(new) == Array("after".utf8))
        }
    }

    @Test func versionOneBuffersStillRead() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            _ = try await vault.protect([0], owner: alice, mode: .encrypted)
            let key = try #require(VaultFormat.key(fromFile: try [UInt8](Data(contentsOf: URL(fileURLWithPath: vault.directory(for: alice) + "/.key")))))
            let owner = Array(alice.key.utf8)
            let header = Array("CPRT".utf8) + [1, 1, 0, UInt8(owner.count)] + owner
            let box = try AES.GCM.seal(Array("v1 secret".utf8), using: key, authenticating: header)
            let v1 = header + Array(box.combined!)
            #expect(try await vault.protectionInfo(v1) == .init(owner: alice, mode: .encrypted))
            #expect(try await vault.unprotect(v1) == Array("v1 secret".utf8))
            #expect(try await vault.unprotect(Array("CPRT".utf8) + [1, 0, 0, 0] + [9]) == [9])
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
