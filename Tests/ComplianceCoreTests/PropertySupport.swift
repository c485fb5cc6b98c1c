import PropertyBased
@testable import ComplianceCore

/// Turns a generated list of integers into a stream of choices; when the list runs out
/// every choice is 0 (the "keep going normally" branch), so every run terminates.
struct Choices {
    private var values: [Int]
    private var index = 0

    init(_ values: [Int]) { self.values = values }

    var exhausted: Bool { index >= values.count }

    mutating func next(_ bound: Int) -> Int {
        guard index < values.count else { return 0 }
        defer { index += 1 }
        return values[index] % bound
    }

    mutating func pick<T>(_ options: [T]) -> T { options[next(options.count)] }
}

/// The input of every state-machine property: a list of choices.
let choiceLists = Gen.int(in: 0...9_999).array(of: 0...120)

/// Collects broken invariants instead of failing at once, so a driver's checks can
/// themselves be tested (a driver that cannot report a violation proves nothing).
struct Violations {
    private(set) var messages: [String] = []
    let documented: Set<String>

    init(_ transitions: [DocumentedTransition]) {
        documented = Set(transitions.map { "\($0.from)->\($0.to)" })
    }

    mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { messages.append(message()) }
    }

    /// An observed state change must be one the machine documents.
    mutating func transition(_ from: String, _ to: String) {
        guard from != to else { return }
        check(documented.contains("\(from)->\(to)"), "undocumented transition \(from) -> \(to)")
    }
}
