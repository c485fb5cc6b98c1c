import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore

@testable import Daemon

/// The control router of a started engine (``DaemonHarness``), tested without sockets
/// (`app.test(.router)`): the peer check asks `peerUID` instead of the kernel.
enum RouterSupport {
    static func withRouter(
        testHooks: Bool = false, peerUID: uid_t? = geteuid(),
        _ body: @Sendable (any TestClientProtocol, DaemonHarness) async throws -> Void
    ) async throws {
        try await DaemonHarness.run { harness in
            let routes = ControlRoutes(engine: harness.engine, testHooks: testHooks, logger: quietLogger)
            let app = Application(
                router: routes.router(peerUID: { _ in peerUID }),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: quietLogger)
            try await app.test(.router) { client in try await body(client, harness) }
        }
    }
}

/// One control API answer: status, headers, JSON body (`.null` when the body is not JSON).
struct ControlAnswer {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let json: JSONValue
    let bytes: [UInt8]

    var code: String? { json["error"]?["code"]?.stringValue }
    var message: String { json["error"]?["message"]?.stringValue ?? "" }

    /// `{"error": {"code", "message"}}` with exactly those two members, and `status`, `code`.
    func isError(_ status: HTTPResponse.Status, _ code: String) -> Bool {
        self.status == status && self.code == code && json.objectValue?.keys.sorted() == ["error"]
            && json["error"]?.objectValue?.keys.sorted() == ["code", "message"]
    }
}

extension TestClientProtocol {
    /// Sends `body` (JSON) or `raw` bytes to `uri` and reads the answer.
    func control(
        _ method: HTTPRequest.Method, _ uri: String, _ body: JSONValue? = nil, raw: [UInt8]? = nil, headers: HTTPFields = [:]
    ) async throws -> ControlAnswer {
        let bytes = raw ?? body.map { $0.encoded() }
        let response = try await execute(uri: uri, method: method, headers: headers, body: bytes.map { ByteBuffer(bytes: $0) })
        let data = Array(response.body.readableBytesView)
        return ControlAnswer(status: response.status, headers: response.headers, json: (try? JSONValue.parse(data)) ?? .null, bytes: data)
    }
}
