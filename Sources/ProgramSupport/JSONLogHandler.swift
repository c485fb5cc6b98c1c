#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSON
import Logging

/// A swift-log handler that writes one JSON object a line:
/// `{"time":"2026-11-26T14:03:07.123Z","level":"info","label":"complianced","message":"…","metadata":{…}}`.
///
/// Metadata values are written as strings, lists and objects as swift-log holds them; a
/// value's text is its `description`, so types that redact themselves there (tokens, secrets)
/// stay redacted exactly as in the text format. `source`, `file` and `line` are written only at
/// `trace` and `debug`. Each line is one `write(2)`, so lines from concurrent loggers never
/// interleave.
public struct JSONLogHandler: LogHandler {
    /// Where the lines go.
    public struct Sink: Sendable {
        let write: @Sendable ([UInt8]) -> Void

        /// Standard error, one `write(2)` per line.
        public static let standardError = Sink { bytes in
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 { offset += written } else if errno != EINTR { return }
                }
            }
        }

        /// Any function: tests collect the lines.
        public init(write: @escaping @Sendable ([UInt8]) -> Void) {
            self.write = write
        }
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let sink: Sink

    public init(label: String, sink: Sink, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.sink = sink
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        var line = JSONObject()
        line["time"] = .string(Self.timestamp())
        line["level"] = .string(event.level.rawValue)
        line["label"] = .string(label)
        line["message"] = .string(event.message.description)
        if !merged.isEmpty {
            line["metadata"] = .object(JSONObject(merged.sorted { $0.key < $1.key }.map { ($0.key, Self.json($0.value)) }))
        }
        if event.level <= .debug {
            line["source"] = .string(event.source)
            line["file"] = .string(event.file)
            line["line"] = .int(Int64(event.line))
        }
        sink.write(JSONValue.object(line).encoded() + [0x0A])
    }

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let members): .object(JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) }))
        }
    }

    /// RFC 3339 in UTC with milliseconds, from the wall clock (no Foundation).
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let millis = Int32(now.tv_nsec / 1_000_000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(millis, 3))Z"
    }
}
