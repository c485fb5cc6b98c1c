import Foundation

/// Durations as flows and the CLI write them: `90` (seconds), `30s`, `15m`, `8h`, `1d`, or
/// combinations such as `1d2h30m`.
public enum DurationText {
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public let text: String
        /// The text is a duration, longer than ten years.
        public var tooLong = false
        public var description: String {
            tooLong
                ? "'\(text)' is longer than ten years, the most the clock moves at once"
                : "'\(text)' is not a duration: write seconds (90) or units d, h, m, s (e.g. 8h, 24h, 1d2h30m)"
        }
    }

    /// The number of seconds `text` stands for (at most ten years).
    public static func seconds(_ text: String) throws(ParseError) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ParseError(text: text) }
        if let plain = Int64(trimmed), plain >= 0 { return try bounded(plain, text) }
        var total: Int64 = 0
        var digits = ""
        for character in trimmed {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let unit: Int64
            switch character {
            case "d": unit = 86_400
            case "h": unit = 3_600
            case "m": unit = 60
            case "s": unit = 1
            default: throw ParseError(text: text)
            }
            guard let value = Int64(digits) else { throw ParseError(text: text) }
            guard value <= 10 * 365 * 86_400 else { throw ParseError(text: text, tooLong: true) }
            total += value * unit
            digits = ""
        }
        guard digits.isEmpty else { throw ParseError(text: text) }
        return try bounded(total, text)
    }

    private static func bounded(_ seconds: Int64, _ text: String) throws(ParseError) -> Int64 {
        guard seconds <= 10 * 365 * 86_400 else { throw ParseError(text: text, tooLong: true) }
        return seconds
    }
}
