import Crypto
import Foundation

/// Generated users for load runs: many alice-like users (CA-targeted, MAM policy assigned,
/// licensed, in the policy's allowed accounts).
extension Fixtures {
    /// The password of every generated user (the demo tenant's).
    public static let generatedUserPassword = "Passw0rd!"

    /// The UPN of generated user `index` (1-based): `load00001@contoso.com` for prefix `load`.
    public func generatedUPN(_ index: Int, prefix: String = "load") -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + "@" + tenant.domain
    }

    /// These fixtures plus `count` generated users (see ``generatedUPN(_:prefix:)``), each
    /// remediable like alice: 53005 until the app enrolls and reports compliance. They are
    /// added to the policy's allowed accounts when the policy has a list. Users that already
    /// exist are left as they are.
    ///
    /// - Parameters:
    ///   - count: how many, at most 100 000.
    ///   - prefix: the UPN's local part before the number (`[a-z0-9.-]`, non-empty).
    public func addingGeneratedUsers(count: Int, prefix: String = "load") throws(FixtureError) -> Fixtures {
        guard (0...100_000).contains(count) else {
            throw FixtureError(path: "count", message: "generate between 0 and 100000 users, not \(count)")
        }
        guard !prefix.isEmpty, prefix.utf8.allSatisfy({ Self.prefixBytes.contains($0) }) else {
            throw FixtureError(path: "prefix", message: "the prefix '\(prefix)' must be non-empty lower-case letters, digits, '.' or '-'")
        }
        var added: [User] = []
        for index in stride(from: 1, through: count, by: 1) {
            let upn = generatedUPN(index, prefix: prefix)
            guard user(upn: upn) == nil else { continue }  // each index gives its own UPN
            added.append(User(
                upn: upn, objectId: Self.generatedObjectId(upn: upn),
                displayName: "Load user \(index)", password: Self.generatedUserPassword,
                caTargeted: true, mamPolicyAssigned: true, licensed: true))
        }
        // One change of each list, not one per user: each change rebuilds its index.
        var copy = self
        copy.users += added
        copy.mamPolicy.allowedAccounts? += added.map(\.upn)
        return copy
    }

    /// A generated user's object id: a UUID (version 8, name-based) from the SHA-256 of the
    /// UPN, so users of different prefixes never share one, and a user keeps it across runs.
    static func generatedObjectId(upn: String) -> String {
        var b = Array(SHA256.hash(data: Array(upn.utf8)).prefix(16))
        b[6] = (b[6] & 0x0F) | 0x80
        b[8] = (b[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        return uuid.uuidString.lowercased()
    }

    private static let prefixBytes = Set("abcdefghijklmnopqrstuvwxyz0123456789.-".utf8)
}
