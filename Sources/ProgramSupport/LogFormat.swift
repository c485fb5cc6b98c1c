import JSON
import Logging

/// How an executable writes its log lines to standard error.
///
/// `text` is swift-log's `StreamLogHandler` layout; `json` writes one JSON object a line
/// (``JSONLogHandler``), for log shippers and `jq`. Libraries never choose: only the executables
/// call ``LogFormat/bootstrap(level:)``.
public enum LogFormat: String, CaseIterable, Sendable {
    case text
    case json

    /// "text or json", for option help and errors.
    public static let choices = allCases.map(\.rawValue).joined(separator: " or ")

    /// Installs the process-wide log handler for this format at `level` (once per process).
    public func bootstrap(level: Logger.Level) {
        switch self {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label, sink: .standardError)
                handler.logLevel = level
                return handler
            }
        }
    }

    /// A line a program writes itself, outside its logger (the ready line on stdout, a start-up
    /// error on stderr): `message` as it is in `text`, and in `json` a record with the same
    /// message at `level`, so that a program started with `--log-format json` writes nothing
    /// but JSON lines. Ends with a newline.
    public func line(_ message: String, level: Logger.Level = .notice, label: String, metadata: [(String, String)] = []) -> String {
        switch self {
        case .text:
            return TerminalText.shown(message) + "\n"
        case .json:
            var line = JSONObject()
            line["time"] = .string(JSONLogHandler.timestamp())
            line["level"] = .string(level.rawValue)
            line["label"] = .string(label)
            line["message"] = .string(message)
            if !metadata.isEmpty { line["metadata"] = .object(JSONObject(metadata.map { ($0.0, JSONValue.string($0.1)) })) }
            return JSONValue.object(line).encodedString() + "\n"
        }
    }
}
