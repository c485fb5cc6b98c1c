import JSON

/// What `profile lint` prints: one line per problem, or a JSON document.
public struct ProfileReport: Sendable, Hashable {
    /// The problems, in `lint()` order.
    public let problems: [ProfileProblem]

    public init(problems: [ProfileProblem]) { self.problems = problems }

    public var errorCount: Int { problems.count { $0.severity == .error } }
    public var warningCount: Int { problems.count { $0.severity == .warning } }

    /// `error: IntuneMAMSettings.ADALClientId: missing — fix: set it to your app's Entra client id`,
    /// one per problem, then a summary line (`2 errors, 1 warning`).
    public var humanLines: [String] {
        problems.map(\.description) + ["\(Self.count(errorCount, "error")), \(Self.count(warningCount, "warning"))"]
    }

    /// `{"problems": [...], "errors": n, "warnings": n}`.
    public var json: JSONValue {
        ["problems": .array(problems.map(\.json)), "errors": .int(Int64(errorCount)), "warnings": .int(Int64(warningCount))]
    }

    /// The exit status a command should end with: 1 when there is an error, 0 otherwise.
    public var exitStatus: Int32 { errorCount > 0 ? 1 : 0 }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

/// What `profile fix` did.
public struct ProfileFixReport: Sendable, Hashable {
    /// The problems the fix repaired.
    public let fixed: [ProfileProblem]
    /// The problems left for a person (lint of the fixed profile).
    public let remaining: ProfileReport
    /// Files written, in the order written; empty when nothing needed to change in place.
    public let written: [String]

    /// `fixed: <problem>` per repair, `wrote <file>` per file, then the remaining problems.
    public var humanLines: [String] {
        fixed.map { "fixed: \($0.keyPath): \($0.message)" } + written.map { "wrote \($0)" } + remaining.humanLines
    }

    public var json: JSONValue {
        [
            "fixed": .array(fixed.map(\.json)), "written": .array(written.map(JSONValue.string)),
            "remaining": remaining.json,
        ]
    }
}
