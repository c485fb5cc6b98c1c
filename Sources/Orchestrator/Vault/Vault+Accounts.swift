import ComplianceCore
import Crypto

extension Vault {
    /// The owners of every account directory, from their manifests, sorted by key: what to
    /// reconcile with the store on start. A directory whose manifest is unreadable is skipped
    /// with a warning (its owner cannot be told from its hashed name).
    public func accountsWithData() throws -> [AccountID] {
        let names = try io(nil, nil) { try VaultFiles.entries(root) ?? [] }.filter { !$0.hasPrefix(".") }
        var owners: [AccountID] = []
        for name in names {
            let path = root + "/" + name + "/" + Self.manifestName
            if let bytes = try? VaultFiles.read(path), let manifest = VaultManifest(bytes: bytes),
               Self.directoryName(for: manifest.account) == name {
                owners.append(manifest.account)
            } else {
                logger.warning("vault directory without a valid manifest", metadata: ["vault.directory": "\(name)"])
            }
        }
        return owners.sorted { $0.key < $1.key }
    }

    /// Creates the account directory (0700) and its manifest when missing: ownership is
    /// recorded before any file is written.
    func prepareDirectory(for account: AccountID) throws -> String {
        let directory = directory(for: account)
        if !VaultFiles.exists(directory) {
            do {
                try FileSecurity.makeDirectory(directory)
                try VaultFiles.syncDirectory(root)
            } catch {
                throw VaultError(code: .io, account: account.upn, message: "cannot create the account directory: \(error)")
            }
        }
        if try readManifest(account, directory: directory) == nil {
            try writeManifest(VaultManifest(account: account), directory: directory)
        }
        return directory
    }

    func readManifest(_ account: AccountID, directory: String) throws -> VaultManifest? {
        guard let bytes = try io(account, Self.manifestName, { try VaultFiles.read(directory + "/" + Self.manifestName) }) else {
            return nil
        }
        guard let manifest = VaultManifest(bytes: bytes) else {
            throw VaultError(code: .badFormat, account: account.upn, name: Self.manifestName, message: "the manifest is not valid")
        }
        guard manifest.account == account else {
            throw VaultError(code: .badFormat, account: account.upn, name: Self.manifestName,
                             message: "the directory's manifest names another owner (\(manifest.account.upn))")
        }
        return manifest
    }

    func writeManifest(_ manifest: VaultManifest, directory: String) throws {
        try io(manifest.account, Self.manifestName) {
            try VaultFiles.atomicWrite(manifest.json.encoded(sortedKeys: false), directory: directory, name: Self.manifestName)
        }
    }

    /// The account's key; with `create`, a new random key is written (0600) when none exists.
    /// Without `create`, a missing or malformed key file is ``VaultError/Code/keyMissing``.
    func loadKey(_ account: AccountID, directory: String, create: Bool) throws -> SymmetricKey {
        let path = directory + "/" + Self.keyName
        if let bytes = try io(account, Self.keyName, { try VaultFiles.read(path) }) {
            guard let key = VaultFormat.key(fromFile: bytes) else {
                throw VaultError(code: .keyMissing, account: account.upn, name: Self.keyName, message: "the account's key file is malformed")
            }
            return key
        }
        guard create else {
            throw VaultError(code: .keyMissing, account: account.upn, name: Self.keyName,
                             message: "the file is encrypted but the account's key file is missing")
        }
        let key = SymmetricKey(size: .bits256)
        try io(account, Self.keyName) { try VaultFiles.atomicWrite(VaultFormat.keyFile(key), directory: directory, name: Self.keyName) }
        return key
    }
}
