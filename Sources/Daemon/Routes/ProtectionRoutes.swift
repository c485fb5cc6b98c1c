import ComplianceCore
import Foundation
import Hummingbird
import JSON
import Orchestrator

/// Protected buffers (`IntuneMAMDataProtectionManager`: `POST /v1/protect`, `/v1/unprotect`,
/// `/v1/protection-info`) and the data-protection policy's answers (`GET
/// /v1/accounts/{upn}/data-protection`, `GET /v1/data-protection`). Buffers travel as base64
/// in JSON bodies (at most ``ControlLimits/maxJSONBytes`` a body).
struct ProtectionRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.post("/v1/protect", use: protect)
        router.post("/v1/unprotect", use: unprotect)
        router.post("/v1/protection-info", use: protectionInfo)
        router.get("/v1/accounts/:upn/data-protection") { request, context in
            try await dataProtection(request, identity: try context.pathParameter("upn"))
        }
        router.get("/v1/data-protection") { request, _ in try await dataProtection(request, identity: nil) }
    }

    /// `POST /v1/protect` `{"identity": UPN | null, "data": base64}` → `{"data", "owner", "mode",
    /// "encrypted"}`: encrypted for the managed account, the identity header alone otherwise.
    @Sendable func protect(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "POST /v1/protect"
        let body = try await request.controlBody(route: route, known: ["identity", "data"])
        let identity = try body.optionalString("identity")
        let data = try Self.base64(body.string("data"), route: route)
        let buffer = try await engine.protect(data, identity: identity)
        var answer = Self.protectionJSON(owner: buffer.owner, mode: buffer.mode)
        answer["data"] = .string(Data(buffer.bytes).base64EncodedString())
        return .json(.object(answer))
    }

    /// `POST /v1/unprotect` `{"data": base64}` → `{"data", "protected", "owner", "mode",
    /// "encrypted"}`; data that is not protected comes back unchanged (`protected` false).
    @Sendable func unprotect(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "POST /v1/unprotect"
        let body = try await request.controlBody(route: route, known: ["data"])
        let data = try Self.base64(body.string("data"), route: route)
        let (bytes, protection) = try await engine.unprotect(data)
        var answer = Self.bufferJSON(protection)
        answer["data"] = .string(Data(bytes).base64EncodedString())
        return .json(.object(answer))
    }

    /// `POST /v1/protection-info` `{"data": base64}` → `{"protected", "owner", "mode", "encrypted"}`.
    @Sendable func protectionInfo(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "POST /v1/protection-info"
        let body = try await request.controlBody(route: route, known: ["data"])
        let data = try Self.base64(body.string("data"), route: route)
        return .json(.object(Self.bufferJSON(try await engine.protectionInfo(data))))
    }

    /// `GET /v1/accounts/{upn}/data-protection` (and `/v1/data-protection` for no identity):
    /// the policy object's answers; query `owner`, `scheme`, `knownManagedAppScheme`.
    func dataProtection(_ request: Request, identity: String?) async throws -> Response {
        let route = identity == nil ? "GET /v1/data-protection" : "GET /v1/accounts/{upn}/data-protection"
        let query = try request.controlQuery(route: route, known: ["owner", "scheme", "knownManagedAppScheme"])
        let owner = query["owner"]
        if let owner, owner.isEmpty { throw ControlError.badRequest("\(route): 'owner' is empty; leave it out for no owner") }
        let scheme = query["scheme"]
        if let scheme, !Self.isURLScheme(scheme) {
            throw ControlError.badRequest("\(route): 'scheme' must be a URL scheme (a letter, then letters, digits, '+', '-', '.'), got '\(scheme)'")
        }
        let knownScheme: Bool
        switch query["knownManagedAppScheme"] {
        case nil, "false": knownScheme = false
        case "true": knownScheme = true
        case let other?: throw ControlError.badRequest("\(route): 'knownManagedAppScheme' must be true or false, got '\(other)'")
        }
        let question = Engine.DataProtectionQuestion(identity: identity, owner: owner, scheme: scheme, knownManagedAppScheme: knownScheme)
        return .json(.object(ControlJSON.dataProtection(try await engine.dataProtection(question))))
    }

    /// RFC 3986 scheme syntax.
    static func isURLScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic, text.utf8.count <= 64 else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    static func protectionJSON(owner: AccountID?, mode: ProtectionMode) -> JSONObject {
        ["owner": owner.map { .string($0.key) } ?? .null, "mode": .string(mode.rawValue), "encrypted": .bool(mode == .encrypted)]
    }

    static func bufferJSON(_ protection: Vault.BufferProtection?) -> JSONObject {
        guard let protection else { return ["protected": false, "owner": .null, "mode": .null, "encrypted": false] }
        var answer = protectionJSON(owner: protection.owner, mode: protection.mode)
        answer["protected"] = true
        return answer
    }

    /// The bytes of a base64 field (standard alphabet, padded).
    static func base64(_ text: String, route: String) throws(ControlError) -> [UInt8] {
        guard let data = Data(base64Encoded: text) else {
            throw .badRequest("\(route): field 'data' must be base64 (standard alphabet, padded)")
        }
        return Array(data)
    }
}
