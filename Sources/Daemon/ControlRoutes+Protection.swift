import ComplianceCore
import Foundation
import Hummingbird
import JSON
import Orchestrator

/// Protected buffers (`IntuneMAMDataProtectionManager`: `protect`, `unprotect`,
/// `protectionInfo`) and the owner of a vault file (`IntuneMAMFileProtectionManager
/// protectionInfo:`). Buffers travel as base64 in JSON bodies (at most
/// ``ControlLimits/maxJSONBytes`` a body).
extension ControlRoutes {
    /// `POST /v1/protect` `{"identity": UPN | null, "data": base64}` → `{"data", "owner", "mode",
    /// "encrypted"}`: encrypted for the managed account, the identity header alone otherwise.
    func protect(_ request: Request) async throws -> Response {
        let route = "POST /v1/protect"
        let body = try await jsonBody(request, route: route, known: ["identity", "data"])
        let identity = try body.optionalString("identity")
        let data = try Self.base64(body.string("data"), route: route)
        let buffer = try await engineCall { try await engine.protect(data, identity: identity) }
        var answer = Self.protectionJSON(owner: buffer.owner, mode: buffer.mode)
        answer["data"] = .string(Data(buffer.bytes).base64EncodedString())
        return .json(.object(answer))
    }

    /// `POST /v1/unprotect` `{"data": base64}` → `{"data", "protected", "owner", "mode",
    /// "encrypted"}`; data that is not protected comes back unchanged (`protected` false).
    func unprotect(_ request: Request) async throws -> Response {
        let route = "POST /v1/unprotect"
        let body = try await jsonBody(request, route: route, known: ["data"])
        let data = try Self.base64(body.string("data"), route: route)
        let (bytes, protection) = try await engineCall { try await engine.unprotect(data) }
        var answer = Self.bufferJSON(protection)
        answer["data"] = .string(Data(bytes).base64EncodedString())
        return .json(.object(answer))
    }

    /// `POST /v1/protection-info` `{"data": base64}` → `{"protected", "owner", "mode", "encrypted"}`.
    func protectionInfo(_ request: Request) async throws -> Response {
        let route = "POST /v1/protection-info"
        let body = try await jsonBody(request, route: route, known: ["data"])
        let data = try Self.base64(body.string("data"), route: route)
        let protection = try await engineCall { try await engine.protectionInfo(data) }
        return .json(.object(Self.bufferJSON(protection)))
    }

    /// `GET /v1/accounts/{upn}/data/{name}/protection-info` → `{"account", "name", "owner",
    /// "mode", "encrypted", "ownerInHeader"}`: the file's owner as its header names it.
    func fileProtectionInfo(_ context: ControlRequestContext, name: String) async throws -> Response {
        let upn = try parameter("upn", context)
        let protection = try await engineCall { try await engine.fileProtection(upn, name: name) }
        var answer = Self.protectionJSON(owner: protection.owner, mode: protection.mode)
        answer["account"] = .string(protection.owner.key)
        answer["name"] = .string(name)
        answer["ownerInHeader"] = .bool(protection.ownerInHeader)
        return .json(.object(answer))
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
