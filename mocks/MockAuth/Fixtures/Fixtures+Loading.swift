import Foundation
import JSON

/// A fixture file that cannot be used, naming the member at fault.
public struct FixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document, e.g. `users[2].upn`.
    public var path: String
    public var message: String

    public var description: String { "fixtures: \(path): \(message)" }
}

extension Fixtures {
    /// Reads and validates a fixture file (a leading UTF-8 byte-order mark is skipped).
    public static func load(path: String) throws -> Fixtures {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError(path: path, message: "cannot read the file")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parseFile(Array(data))
        } catch {
            throw FixtureError(path: path, message: error.description)
        }
        return try Fixtures(json: value)
    }

    /// Builds fixtures from a parsed document; throws ``FixtureError`` on a missing or mistyped member.
    public init(json: JSONValue) throws {
        let root = Reader(value: json, path: "$")
        let tenant = try root.member("tenant")
        self.tenant = Tenant(
            id: try tenant.string("id").lowercased(),
            domain: try tenant.string("domain"),
            displayName: try tenant.optionalString("displayName") ?? tenant.string("domain"))
        self.clients = try root.array("clients").map { client in
            let isPublic = try client.string("type") == "public"
            let redirectURIs = try client.optionalStrings("redirectUris") ?? []
            let spaRedirectURIs = try client.optionalStrings("spaRedirectUris") ?? []
            for (member, uris) in [("redirectUris", redirectURIs), ("spaRedirectUris", spaRedirectURIs)] {
                for (index, uri) in uris.enumerated() {
                    if let problem = RedirectURIRules.problem(uri) {
                        throw FixtureError(path: "\(client.path).\(member)[\(index)]", message: "'\(uri)' \(problem)")
                    }
                }
            }
            let certificates = try (client.optionalStrings("certificates") ?? []).enumerated().map { index, text in
                guard !isPublic else {
                    throw FixtureError(path: "\(client.path).certificates", message: "a public client has no credentials")
                }
                guard let certificate = ClientCertificate(base64: text) else {
                    throw FixtureError(path: "\(client.path).certificates[\(index)]", message: "must be a base64 DER X.509 certificate with an RSA key")
                }
                return certificate
            }
            return ClientApp(
                clientId: try client.string("clientId"),
                displayName: try client.optionalString("displayName") ?? client.string("clientId"),
                isPublic: isPublic,
                redirectURIs: redirectURIs,
                spaRedirectURIs: spaRedirectURIs,
                // A confidential client needs a credential: a secret, a certificate, or both.
                secret: isPublic ? nil : certificates.isEmpty ? try client.string("secret") : try client.optionalString("secret"),
                certificates: certificates,
                objectId: try client.string("objectId"))
        }
        self.apis = try root.array("apis").map { api in
            let scopes = try api.optionalStrings("scopes") ?? []
            let declined = try api.optionalStrings("declinedScopes") ?? []
            if let unknown = declined.first(where: { !scopes.contains($0) }) {
                throw FixtureError(path: "\(api.path).declinedScopes", message: "'\(unknown)' is not one of the API's scopes \(scopes)")
            }
            let consent = try api.optionalStrings("consentRequiredScopes") ?? []
            if let bad = consent.first(where: { !scopes.contains($0) || declined.contains($0) }) {
                throw FixtureError(
                    path: "\(api.path).consentRequiredScopes", message: "'\(bad)' is not one of the API's scopes \(scopes), or it is declined")
            }
            let optional = try api.optionalStrings("optionalClaims") ?? []
            if let unknown = optional.first(where: { !ProtectedAPI.knownOptionalClaims.contains($0) }) {
                throw FixtureError(
                    path: "\(api.path).optionalClaims", message: "'\(unknown)' is not an optional claim the mock issues \(ProtectedAPI.knownOptionalClaims)")
            }
            return ProtectedAPI(
                resource: try api.string("resource"), scopes: scopes, isMAMService: try api.optionalBool("mamService") ?? false,
                declinedScopes: declined, consentRequiredScopes: consent, appId: try api.optionalString("appId")?.lowercased(),
                optionalClaims: optional)
        }
        self.users = try root.array("users").map { user in
            User(
                upn: try user.string("upn"),
                objectId: try user.string("objectId").lowercased(),
                displayName: try user.string("displayName"),
                password: try user.string("password"),
                caTargeted: try user.optionalBool("caTargeted") ?? false,
                mamPolicyAssigned: try user.optionalBool("mamPolicyAssigned") ?? false,
                licensed: try user.optionalBool("licensed") ?? true,
                mfaRequired: try user.optionalBool("mfaRequired") ?? false,
                accountEnabled: try user.optionalBool("accountEnabled") ?? true,
                isMicrosoftAccount: try user.optionalBool("microsoftAccount") ?? false)
        }
        let policy = try root.member("mamPolicy")
        var settings = JSONObject()
        for (name, value) in try policy.member("settings").object() {
            if let problem = MAMPolicy.problem(setting: name, value: value) {
                throw FixtureError(path: "$.mamPolicy.settings.\(name)", message: problem)
            }
            settings[name] = value
        }
        let allowed = try policy.member("allowedAccounts")
        self.mamPolicy = MAMPolicy(
            id: try policy.string("id"),
            appIds: try policy.optionalStrings("appIds") ?? [],
            version: try policy.optionalInt("version") ?? 1,
            allowedAccounts: allowed.value.isNull ? nil : try allowed.strings(),
            settings: settings)
        let lifetimes = try? root.member("lifetimes")
        self.lifetimes = Lifetimes(
            accessToken: try lifetimes?.optionalInt("accessTokenSeconds") ?? 3600,
            authorizationCode: try lifetimes?.optionalInt("authorizationCodeSeconds") ?? 300,
            refreshToken: try lifetimes?.optionalInt("refreshTokenSeconds") ?? 86_400 * 90,
            deviceCode: try lifetimes?.optionalInt("deviceCodeSeconds") ?? 900,
            deviceCodeInterval: try lifetimes?.optionalInt("deviceCodeIntervalSeconds") ?? 5,
            randomizeAccessToken: try lifetimes?.optionalBool("randomizeAccessToken") ?? false)
        guard (1...300).contains(self.lifetimes.deviceCodeInterval) else {
            throw FixtureError(path: "$.lifetimes.deviceCodeIntervalSeconds", message: "must be 1 to 300 seconds")
        }
        if let lockout = try? root.member("lockout") {
            self.lockout = LockoutPolicy(
                threshold: try lockout.optionalInt("threshold") ?? 10, durationSeconds: try lockout.optionalInt("durationSeconds") ?? 60,
                deviceCodeGuesses: try lockout.optionalInt("deviceCodeGuesses") ?? 5)
            if let problem = self.lockout.problem { throw FixtureError(path: "$.lockout", message: problem) }
        }
        if let duplicate = Dictionary(grouping: users, by: { $0.upn.lowercased() }).first(where: { $0.value.count > 1 }) {
            throw FixtureError(path: "$.users", message: "UPN '\(duplicate.key)' appears twice")
        }
        userIndex = Self.index(users)
        objectIdIndex = Self.objectIdIndex(users)
    }
}

/// Typed access to a fixture document with paths for error messages.
private struct Reader {
    let value: JSONValue
    let path: String

    func member(_ key: String) throws -> Reader {
        guard let child = value[key] else { throw FixtureError(path: "\(path).\(key)", message: "missing") }
        return Reader(value: child, path: "\(path).\(key)")
    }

    func object() throws -> JSONObject {
        guard let object = value.objectValue else { throw FixtureError(path: path, message: "must be an object") }
        return object
    }

    func array(_ key: String) throws -> [Reader] {
        let child = try member(key)
        guard let items = child.value.arrayValue else { throw FixtureError(path: child.path, message: "must be an array") }
        return items.enumerated().map { Reader(value: $1, path: "\(child.path)[\($0)]") }
    }

    func string(_ key: String) throws -> String {
        let child = try member(key)
        guard let text = child.value.stringValue, !text.isEmpty else {
            throw FixtureError(path: child.path, message: "must be a non-empty string")
        }
        return text
    }

    func optionalString(_ key: String) throws -> String? {
        value[key] == nil ? nil : try string(key)
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let child = value[key] else { return nil }
        guard let flag = child.boolValue else { throw FixtureError(path: "\(path).\(key)", message: "must be a boolean") }
        return flag
    }

    func optionalInt(_ key: String) throws -> Int? {
        guard let child = value[key] else { return nil }
        guard let number = child.intValue, number > 0 else {
            throw FixtureError(path: "\(path).\(key)", message: "must be a positive integer")
        }
        return Int(number)
    }

    func strings() throws -> [String] {
        guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
            throw FixtureError(path: path, message: "must be an array of strings (or null where allowed)")
        }
        return items.compactMap(\.stringValue)
    }

    func optionalStrings(_ key: String) throws -> [String]? {
        value[key] == nil ? nil : try member(key).strings()
    }
}
