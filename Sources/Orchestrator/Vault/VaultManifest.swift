import ComplianceCore
import JSON

/// The ownership record of one account's vault directory (`.manifest`, JSON):
/// which account owns the directory and each file in it.
public struct VaultManifest: Sendable, Hashable {
    /// The owner.
    public var account: AccountID
    /// Each file the account put, with whether it is encrypted and its plaintext size.
    public var files: [String: FileEntry]

    public struct FileEntry: Sendable, Hashable {
        public var encrypted: Bool
        public var size: Int
        public var updatedAt: EpochMillis
    }

    init(account: AccountID, files: [String: FileEntry] = [:]) {
        self.account = account
        self.files = files
    }

    var json: JSONValue {
        let entries = files.keys.sorted().map { name -> (String, JSONValue) in
            let entry = files[name]!
            return (name, ["encrypted": .bool(entry.encrypted), "size": .int(Int64(entry.size)), "updatedMs": .int(entry.updatedAt)])
        }
        return ["format": 1, "account": .string(account.key), "upn": .string(account.upn), "files": .object(JSONObject(entries))]
    }

    /// Parses a manifest; nil when the bytes are not one (the caller reports it).
    init?(bytes: [UInt8]) {
        guard let value = try? JSONValue.parse(bytes, limits: JSONLimits(maxBytes: 16 << 20, maxDepth: 8)),
              value["format"]?.intValue == 1,
              let key = value["account"]?.stringValue, let upn = value["upn"]?.stringValue,
              let fileObject = value["files"]?.objectValue
        else { return nil }
        var files: [String: FileEntry] = [:]
        for (name, entry) in fileObject {
            guard let encrypted = entry["encrypted"]?.boolValue, let size = entry["size"]?.intValue,
                  let updated = entry["updatedMs"]?.intValue
            else { return nil }
            files[name] = FileEntry(encrypted: encrypted, size: Int(size), updatedAt: updated)
        }
        guard let account = try? AccountID(upn), account.key == key else { return nil }
        self.init(account: account, files: files)
    }
}
