import Hummingbird
import JSON
import NIOCore
import Orchestrator

/// An account's vault files: `/v1/accounts/{upn}/data[/{name}[/protection-info]]` (list, put,
/// get, delete, and the owner a file's header names).
struct DataRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.get("/v1/accounts/:upn/data", use: list)
        router.put("/v1/accounts/:upn/data/:name", use: put)
        router.get("/v1/accounts/:upn/data/:name", use: get)
        router.delete("/v1/accounts/:upn/data/:name", use: remove)
        router.get("/v1/accounts/:upn/data/:name/protection-info", use: protectionInfo)
    }

    @Sendable func list(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let upn = try context.pathParameter("upn")
        let files = try await engine.listData(upn)
        return .json(["account": .string(upn.lowercased()), "files": .array(files.map(ControlJSON.file))])
    }

    @Sendable func put(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let upn = try context.pathParameter("upn")
        let name = try Self.name(context)
        let bytes: [UInt8]
        do {
            bytes = Array(try await request.body.collect(upTo: ControlLimits.maxDataBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw ControlError(.contentTooLarge, "payload_too_large", "a vault file holds at most \(ControlLimits.maxDataBytes) bytes")
        }
        let file = try await engine.putData(upn, name: name, bytes: bytes)
        var object = ControlJSON.file(file).objectValue ?? JSONObject()
        object["account"] = .string(upn.lowercased())
        return .json(.object(object), status: .created)
    }

    @Sendable func get(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let upn = try context.pathParameter("upn")
        let name = try Self.name(context)
        let bytes = try await engine.getData(upn, name: name)
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    @Sendable func remove(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let upn = try context.pathParameter("upn")
        let name = try Self.name(context)
        return .json(["removed": .bool(try await engine.removeData(upn, name: name))])
    }

    /// `GET /v1/accounts/{upn}/data/{name}/protection-info` → `{"account", "name", "owner",
    /// "mode", "encrypted", "ownerInHeader"}`: the file's owner as its header names it.
    @Sendable func protectionInfo(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let name = try Self.name(context)
        let upn = try context.pathParameter("upn")
        let protection = try await engine.fileProtection(upn, name: name)
        var answer = ProtectionRoutes.protectionJSON(owner: protection.owner, mode: protection.mode)
        answer["account"] = .string(protection.owner.key)
        answer["name"] = .string(name)
        answer["ownerInHeader"] = .bool(protection.ownerInHeader)
        return .json(.object(answer))
    }

    /// The `{name}` of a data route, by the control API's rule: 1 to 128 characters from
    /// `A-Z a-z 0-9 . _ -`, not starting with '.', without '..'. Checked before the body is read.
    static func name(_ context: ControlRequestContext) throws(ControlError) -> String {
        let name = try context.pathParameter("name")
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        let problem: String? =
            if name.isEmpty || name.utf8.count > 128 { "must be 1 to 128 characters long (it is \(name.utf8.count))" }
            else if !allowed { "may hold only letters A-Z and a-z, digits, '.', '_' and '-'" }
            else if name.hasPrefix(".") { "must not start with '.'" }
            else if name.contains("..") { "must not contain '..'" }
            else { nil }
        if let problem {
            let shown = String(name.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
            throw .badRequest("the file name '\(shown)' \(problem)")
        }
        return name
    }
}
