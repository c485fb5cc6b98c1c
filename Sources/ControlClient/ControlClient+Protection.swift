import Foundation
import JSON

/// Protected buffers and file owners (`POST /v1/protect`, `/v1/unprotect`,
/// `/v1/protection-info`, `GET …/data/{name}/protection-info`). Bytes go as base64.
extension ControlClient {
    /// `protect`: `data` for `identity` (nil: no user). The answer's `data` is base64.
    public func protect(_ data: [UInt8], identity: String?) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/protect", ["identity": identity.map { .string($0) } ?? .null, "data": .string(Self.base64(data))])
    }

    /// `unprotect`: the answer's `data` (base64) is the plain content.
    public func unprotect(_ data: [UInt8]) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/unprotect", ["data": .string(Self.base64(data))])
    }

    /// `protectionInfo`: `protected`, `owner`, `mode`, `encrypted`.
    public func protectionInfo(_ data: [UInt8]) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/protection-info", ["data": .string(Self.base64(data))])
    }

    /// The owner and protection of `upn`'s file `name`.
    public func fileProtectionInfo(_ upn: String, name: String) async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/accounts/\(Self.pathSegment(upn))/data/\(Self.pathSegment(name))/protection-info")
    }

    /// Standard base64, padded.
    public static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The bytes of standard base64, nil when `text` is not.
    public static func bytes(base64 text: String) -> [UInt8]? {
        Data(base64Encoded: text).map(Array.init)
    }
}
