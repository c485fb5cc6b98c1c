import ComplianceCore
import Foundation
import Testing
@testable import Orchestrator

@Suite struct VaultWipeTests {
    @Test func wipeRemovesExactlyThatAccountAndIsIdempotent() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let outside = root + "/unrelated.txt"
            #expect(FileManager.default.createFile(atPath: outside, contents: Data("keep".utf8)))
            try await vault.put(alice, name: "a", bytes: [1], encrypt: true)
            try await vault.put(bob, name: "b", bytes: [2], encrypt: true)
            let bobDirectory = vault.directory(for: bob)
            let bobBefore = try FileManager.default.contentsOfDirectory(atPath: bobDirectory).sorted()

            #expect(try await vault.accountsWithData() == [alice, bob])
            #expect(try await vault.accountsWithData().map(\.upn) == ["Alice@Contoso.com", "bob@contoso.com"])
            #expect(try await vault.wipe(alice))
            #expect(try await vault.accountsWithData() == [bob])
            #expect(!FileManager.default.fileExists(atPath: vault.directory(for: alice)))
            #expect(try await vault.list(alice).isEmpty)
            #expect(await !vault.hasData(alice))
            #expect(try await !vault.wipe(alice), "a second wipe finds nothing and does not fail")
            #expect(try FileManager.default.contentsOfDirectory(atPath: bobDirectory).sorted() == bobBefore)
            #expect(try await vault.get(bob, name: "b") == [2])
            #expect(FileManager.default.fileExists(atPath: outside))
            #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/vault") == [Vault.directoryName(for: bob)])

            // After a wipe the account starts afresh, with a new key.
            try await vault.put(alice, name: "a", bytes: [3], encrypt: true)
            #expect(try await vault.get(alice, name: "a") == [3])
        }
    }

    @Test func wipeFinishesAfterACrashMidWipe() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            try await vault.put(alice, name: "a", bytes: [1], encrypt: false)
            try await vault.put(alice, name: "b", bytes: [2], encrypt: true)
            try await vault.put(bob, name: "b", bytes: [2], encrypt: false)
            // The crash: the rename happened, part of the deletion did not.
            let trash = root + "/vault/.wipe-" + Vault.directoryName(for: alice)
            try FileManager.default.moveItem(atPath: vault.directory(for: alice), toPath: trash)
            try FileManager.default.removeItem(atPath: trash + "/a")
            #expect(await vault.hasData(alice), "leftovers still count as the account's data")
            #expect(try await vault.wipe(alice))
            #expect(!FileManager.default.fileExists(atPath: trash))
            #expect(try await !vault.wipe(alice))

            // A crash that left both a trash directory and a re-created account directory.
            try await vault.put(alice, name: "c", bytes: [3], encrypt: false)
            try FileManager.default.createDirectory(atPath: trash, withIntermediateDirectories: false)
            #expect(try await vault.wipe(alice))
            #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/vault") == [Vault.directoryName(for: bob)])

            try FileManager.default.createDirectory(atPath: trash, withIntermediateDirectories: false)
            #expect(try await vault.finishInterruptedWipes() == 1)
            #expect(try await vault.get(bob, name: "b") == [2])
        }
    }

    @Test func concurrentPutsForManyAccountsAllLand() async throws {
        try await withTemporaryDirectory { root in
            let vault = try Vault(stateDirectory: root, logger: quietLogger)
            let accounts = (0..<8).map { try! AccountID("User\($0)@Contoso.com") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, account) in accounts.enumerated() {
                    for file in 0..<6 {
                        group.addTask {
                            try await vault.put(account, name: "f\(file)", bytes: [UInt8(index), UInt8(file)], encrypt: file.isMultiple(of: 2))
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (index, account) in accounts.enumerated() {
                #expect(try await vault.list(account) == (0..<6).map { "f\($0)" })
                #expect(try await vault.manifest(for: account)?.files.count == 6)
                for file in 0..<6 {
                    #expect(try await vault.get(account, name: "f\(file)") == [UInt8(index), UInt8(file)])
                }
            }
            let leftovers = try FileManager.default.subpathsOfDirectory(atPath: root + "/vault").filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty)
        }
    }
}
