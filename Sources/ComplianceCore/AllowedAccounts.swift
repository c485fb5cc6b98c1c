import JSON

/// The policy's `allowedAccounts`: a list, or `null` meaning every account is allowed.
public struct AllowedAccounts: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The allowed accounts, sorted by comparison key and without duplicates; `nil` = anyone.
    public let accounts: [AccountID]?

    /// Every account is allowed (the policy's `null`).
    public static let anyone = AllowedAccounts(nil)

    /// A list (sorted, duplicates by comparison key removed) or `nil` for anyone.
    public init(_ accounts: [AccountID]?) {
        self.accounts = accounts.map { Array(Set($0)).sorted() }
    }

    /// True when `account` may sign in.
    public func allows(_ account: AccountID) -> Bool {
        guard let accounts else { return true }
        // Binary search: the list is sorted, and every step of the machine asks of every account.
        var low = 0
        var high = accounts.count
        while low < high {
            let middle = (low + high) / 2
            if accounts[middle] < account { low = middle + 1 } else { high = middle }
        }
        return low < accounts.count && accounts[low] == account
    }

    /// `null` or an array of UPN strings.
    public var json: JSONValue {
        accounts.map { .array($0.map { .string($0.upn) }) } ?? .null
    }

    /// Reads `null` or an array of UPN strings; a malformed UPN is an error, never dropped.
    public init(json: JSONValue, path: String = "allowedAccounts") throws(StoredValueError) {
        switch json {
        case .null:
            self = .anyone
        case .array(let elements):
            var accounts: [AccountID] = []
            for (index, element) in elements.enumerated() {
                guard let text = element.stringValue else {
                    throw StoredValueError(code: .wrongType, path: "\(path)[\(index)]", detail: "a \(element.kindName), expected a UPN string")
                }
                do {
                    accounts.append(try AccountID(text))
                } catch {
                    throw StoredValueError(code: .invalidValue, path: "\(path)[\(index)]", detail: error.message)
                }
            }
            self.init(accounts)
        default:
            throw StoredValueError(code: .wrongType, path: path, detail: "a \(json.kindName), expected null or an array")
        }
    }

    public var description: String {
        accounts.map { "[\($0.map(\.upn).joined(separator: ", "))]" } ?? "anyone"
    }
}

/// App protection policy as received from the MAM service.
public struct MAMPolicy: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The service's policy version or etag.
    public var version: String
    public var allowedAccounts: AllowedAccounts
    /// The policy's other members (everything but `version` and `allowedAccounts`), for the
    /// Orchestrator to apply.
    public var document: JSONObject

    /// A policy from its parts (tests and mocks).
    public init(version: String, allowedAccounts: AllowedAccounts = .anyone, document: JSONObject = JSONObject()) {
        self.version = version
        self.allowedAccounts = allowedAccounts
        self.document = document
    }

    /// Reads `{"version": "…", "allowedAccounts": […]|null, …}`; other members are kept in `document`.
    public init(json: JSONValue) throws(StoredValueError) {
        let reader = try StoredReader(json, path: "policy")
        let version = try reader.string("version")
        let allowed = try AllowedAccounts(json: json["allowedAccounts"] ?? .null, path: "policy.allowedAccounts")
        var document = json.objectValue ?? JSONObject()
        document["version"] = nil
        document["allowedAccounts"] = nil
        self.init(version: version, allowedAccounts: allowed, document: document)
    }

    /// `version`, `allowedAccounts`, then the other members.
    public var json: JSONValue {
        var object = JSONObject([("version", .string(version)), ("allowedAccounts", allowedAccounts.json)])
        for (key, value) in document where key != "version" && key != "allowedAccounts" { object[key] = value }
        return .object(object)
    }

    public var description: String { "policy \(version) allowing \(allowedAccounts)" }
}
