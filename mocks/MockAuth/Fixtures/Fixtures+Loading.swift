import Foundation
import JSON

/// A fixture file that cannot be used, naming the member at fault.
public struct FixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document, e.g. `$.users[2].upn`.
    public var path: String
    public var message: String

    public var description: String { "fixtures: \(path): \(message)" }
}

extension Fixtures {
    /// Reads and validates a fixture file (a leading UTF-8 byte-order mark is skipped).
    public static func load(path: String) throws -> Fixtures {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason = !exists ? "no such file" : isDirectory.boolValue ? "it is a folder, not a file" : String(describing: (error as NSError).localizedDescription)
            throw FixtureError(path: path, message: "cannot read the file: \(reason)")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parseFile(Array(data))
        } catch {
            throw FixtureError(path: path, message: error.description)
        }
        return try Fixtures(json: value)
    }

    /// Builds fixtures from a parsed document; throws ``FixtureError`` on a missing, mistyped
    /// or unknown member (the known ones: `Fixtures+Members.swift`), and on references that
    /// lead nowhere (a policy app that is no client).
    public init(json: JSONValue) throws {
        let root = FixtureReader(value: json, path: "$")
        var lockout = LockoutPolicy()
        (tenant, clients, apis, users, mamPolicy, lifetimes) = try root.read { root in
            let tenant = try root.member("tenant").read(Tenant.init(reading:))
            let clients = try root.objects("clients", ClientApp.init(reading:))
            let apis = try root.objects("apis", ProtectedAPI.init(reading:))
            let users = try root.objects("users", User.init(reading:))
            let policy = try root.member("mamPolicy").read(MAMPolicy.init(reading:))
            let lifetimes = try root.optionalMember("lifetimes")?.read(Lifetimes.init(reading:)) ?? Lifetimes(reading: nil)
            if let read = try root.optionalMember("lockout")?.read(LockoutPolicy.init(reading:)) { lockout = read }
            return (tenant, clients, apis, users, policy, lifetimes)
        }
        self.lockout = lockout
        try checkReferences()
        userIndex = Self.index(users)
        objectIdIndex = Self.objectIdIndex(users)
    }

    /// What each member may be alone but not together: a UPN twice, a policy for an app the
    /// tenant does not register.
    private func checkReferences() throws {
        if let duplicate = Dictionary(grouping: users, by: { $0.upn.lowercased() }).first(where: { $0.value.count > 1 }) {
            throw FixtureError(path: "$.users", message: "UPN '\(duplicate.key)' appears twice")
        }
        try Self.unique(users.map(\.objectId), at: "$.users", "objectId")
        try Self.unique(clients.map(\.clientId), at: "$.clients", "clientId")
        try Self.unique(apis.map(\.resource), at: "$.apis", "resource")
        try Self.unique(apis.compactMap(\.appId), at: "$.apis", "appId")
        try Self.unique(mamPolicy.appIds, at: "$.mamPolicy.appIds", "app")
        let clientIds = clients.map(\.clientId)
        if mamPolicy.appIds.isEmpty {
            throw FixtureError(
                path: "$.mamPolicy.appIds",
                message: "names no app, so the policy applies to none: list your app's client id (clients: \(clientIds.joined(separator: ", ")))")
        }
        for (index, appId) in mamPolicy.appIds.enumerated() where !clientIds.contains(appId) {
            throw FixtureError(
                path: "$.mamPolicy.appIds[\(index)]",
                message: "'\(appId)' names no client (\(ClosestName.hint(appId, among: clientIds))clients: \(clientIds.joined(separator: ", ")))")
        }
    }

    /// Refuses a `what` that appears twice among `values` (ignoring case: client ids, object ids
    /// and resources are case-insensitive at Entra), naming the second's index.
    private static func unique(_ values: [String], at path: String, _ what: String) throws {
        var seen: [String: Int] = [:]
        for (index, value) in values.enumerated() {
            if let first = seen[value.lowercased()] {
                throw FixtureError(path: "\(path)[\(index)]", message: "\(what) '\(value)' appears twice (also at [\(first)])")
            }
            seen[value.lowercased()] = index
        }
    }
}
