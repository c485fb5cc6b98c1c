import ComplianceCore
import Foundation
import HTTPClient
import JSON
import MockAuth
import Orchestrator

/// The floor of the remediation benchmark: the requests one remediation sent (read from the
/// mock's request log), rebuilt with the engine's tokens and replayed with raw libcurl on
/// one reused handle. The mock forgets the compliance report first, as before each
/// remediation, so every request gets the answer it got then.
struct FloorRequests: Sendable {
    private let requests: [(request: RawCurl.Request, status: Int)]
    private let curl = RawCurl()

    init(bench: BenchEngine, mock: BenchMock.Running, log: [RequestLogEntry]) throws {
        let account = try AccountID(RemediationBenchmark.alice)
        let partition = bench.engine.tokenPartition()
        let (api, mam, records) = try bench.store.readSync { transaction in
            (
                try transaction.tokens(for: account, clientID: partition, scopes: ScopeSet(BenchEngine.chatRead)),
                try transaction.tokens(for: account, clientID: partition, scopes: ScopeSet([MAMClient.scope])),
                try transaction.machineRecords()
            )
        }
        // The enrollment id and policy live in the account's machine record.
        let record = records.first { ComplianceMachine.summary(ofRecord: $0)?.account == account }
        guard let refreshToken = api?.refreshToken, let bearer = mam?.accessToken, let enrollmentID = record?["enrollmentId"]?.stringValue else {
            throw BenchError("the engine holds no refresh token, MAM token or enrollment id for alice")
        }
        let claims = try ClaimsRequest.parameter(capabilities: ["protapp"], challenge: nil)
        let version = record?["policy"]?["version"]?.stringValue.flatMap { Int64($0) }
        let json = ["Content-Type: application/json", "Accept: application/json", "Authorization: Bearer \(bearer)"]
        requests = try log.map { entry -> (request: RawCurl.Request, status: Int) in
            guard let status = entry.status else {
                throw BenchError("the remediation's \(entry.method) \(entry.path) got no answer (a fault broke the connection)")
            }
            switch entry.route {
            case "token":
                var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", BenchEngine.clientID)]
                fields.append(("scope", (BenchEngine.chatRead + ["openid", "profile", "offline_access"]).joined(separator: " ")))
                fields.append(("client_info", "1"))
                if let claims { fields.append(("claims", claims)) }
                let body = Array(FormEncoding.encode(fields).utf8)
                let headers = ["Content-Type: application/x-www-form-urlencoded", "Accept: application/json"]
                return (RawCurl.Request(url: mock.tokenURL, body: body, headers: headers), status)
            case "mam.enroll":
                let body: JSONValue = ["appId": .string(BenchEngine.clientID)]
                return (RawCurl.Request(url: mock.mamURL + "/enroll", body: body.encoded(), headers: json), status)
            case "mam.report-compliance":
                var body: JSONObject = ["enrollmentId": .string(enrollmentID), "compliant": true]
                if let version { body["policyVersion"] = .int(version) }
                return (RawCurl.Request(url: mock.mamURL + "/report-compliance", body: JSONValue.object(body).encoded(), headers: json), status)
            default:
                throw BenchError("the remediation sent a request the floor cannot replay: \(entry.method) \(entry.path)")
            }
        }
    }

    /// One replay: the sum of the round trips (each checked for the status it had).
    func measure(_ mock: BenchMock.Running) async throws -> Duration {
        mock.state.resetCompliance(AccountApp(upn: RemediationBenchmark.alice, appId: BenchEngine.clientID))
        let requests = self.requests
        let curl = self.curl
        return try await BlockingQueue.run {
            var total = Duration.zero
            for (request, status) in requests {
                let reply = curl.perform(request)
                guard reply.status == status else {
                    throw BenchError("floor request \(request.url) answered \(reply.status), the engine's got \(status): \(reply.text.prefix(200))")
                }
                total += reply.elapsed
            }
            return total
        }
    }
}
