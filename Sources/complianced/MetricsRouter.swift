import Hummingbird
import ProgramSupport

/// `--metrics-listen`: `GET /metrics` (Prometheus text format) and `GET /health`, on loopback
/// TCP only, apart from the control socket (a scraper needs no access to the control API).
enum MetricsRouter {
    static func router(_ metrics: ProgramMetrics) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: ProgramMetrics.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        router.get("health") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        return router
    }
}
