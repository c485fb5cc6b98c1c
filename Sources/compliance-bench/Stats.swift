/// Per-iteration timings of one measured loop, in nanoseconds.
struct Samples {
    var nanoseconds: [Int64] = []

    mutating func append(_ duration: Duration) { nanoseconds.append(duration.nanoseconds) }

    mutating func append(contentsOf other: Samples) { nanoseconds += other.nanoseconds }

    var mean: Double { nanoseconds.isEmpty ? 0 : Double(nanoseconds.reduce(0, +)) / Double(nanoseconds.count) }

    func percentile(_ p: Double) -> Double {
        guard !nanoseconds.isEmpty else { return 0 }
        let sorted = nanoseconds.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
        return Double(sorted[index])
    }

    var median: Double { percentile(0.5) }
}

/// Formats nanoseconds as microseconds with one decimal.
func micros(_ nanoseconds: Double) -> String {
    let tenths = Int((nanoseconds / 100).rounded())
    return "\(tenths / 10).\(tenths % 10) µs"
}

func ratio(_ value: Double, _ floor: Double) -> String {
    guard floor > 0 else { return "n/a" }
    let hundredths = Int((value / floor * 100).rounded())
    return "\(hundredths / 100).\(String(hundredths % 100).leftPadded(to: 2))"
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Formats nanoseconds as milliseconds with one decimal.
func millis(_ nanoseconds: Double) -> String {
    micros(nanoseconds / 1000).replacingOccurrences(of: " µs", with: " ms")
}

/// A benchmark that could not measure what it meant to (a wrong answer, a missing tool).
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
