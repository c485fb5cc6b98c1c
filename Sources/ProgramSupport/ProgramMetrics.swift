import CoreMetrics
import Prometheus

/// One program's metrics: a Prometheus registry of its own and the swift-metrics factory that
/// records into it.
///
/// Each server instance holds one (not the process-wide `MetricsSystem`), so two servers in one
/// test process count apart. Libraries take the ``factory`` and create swift-metrics
/// `Counter`s and `Timer`s with it; the server answers `GET /metrics` with ``exposition()``.
public struct ProgramMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    /// The swift-metrics factory; timers become Prometheus histograms with ``latencyBuckets``.
    public let factory: any MetricsFactory

    /// Latency buckets for request timers: 1 ms to 10 s.
    public static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    public init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.latencyBuckets
        self.registry = registry
        self.factory = factory
    }

    /// The Prometheus text exposition format (version 0.0.4) of every metric so far.
    public func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// The `Content-Type` of ``exposition()``.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}
