import ControlClient
import JSON

/// The check steps: accounts, vault files, events, enrollment statuses, the mock's requests.
extension FlowRunner {
    func runCheck(_ step: FlowStep, _ context: RunContext) async -> StepCheck {
        do {
            switch step.action {
            case .expectAccount(let account, let fields):
                return try await checkAccount(account, fields, context)
            case .expectData(let account, let present, let absent, let contents, let encrypted, let plain, let owners):
                let check = try await checkData(account, present: present, absent: absent, contents: contents, encrypted: encrypted, plain: plain, context)
                return try await checkOwners(account, owners, check, context)
            case .expectEvents(let patterns, let absent, let counts):
                let events = try await context.events()
                let seen = Set(events.compactMap { $0["account"]?.stringValue }).union(flow.actedAccounts)
                if let unseen = Sequences.unseenName("account", in: absent + counts.map(\.pattern), seen: seen, what: "event") { return unseen }
                return Sequences.check(
                    events, patterns, absent: absent, counts: counts, what: "event", describe: Sequences.describeEvent, matches: Sequences.eventMatches)
            case .expectEnrollmentStatuses(let account, let codes):
                guard try await Self.unlessUnknown({ () async throws(ControlClientError) in try await context.stack.client.account(account) }) != nil else {
                    return .failed("enrollment statuses of \(account)", ["account: the daemon has no account \(account)"])
                }
                let seen = try await context.events().filter {
                    ["enrollment", "policy", "unenroll"].contains($0["kind"]?.stringValue ?? "") && $0["account"]?.stringValue == account.lowercased()
                }.compactMap { $0["payload"]?["status"]?.intValue }
                let describe = { (list: [Int64]) in list.map { StatusNames.describeEnrollment(Int($0)) }.joined(separator: ", ") }
                guard seen == codes else {
                    return .failed("enrollment statuses of \(account)", ["expected [\(describe(codes))], got [\(describe(seen))]"])
                }
                return .passed("[\(describe(seen))]")
            case .expectDataProtection(let identity, let owner, let scheme, let known, let expected):
                // An unknown identity is the daemon's unknown_account: the check fails, naming it.
                let answer = try await context.stack.client.dataProtection(identity, owner: owner, scheme: scheme, knownManagedAppScheme: known)
                if let miss = JSONPattern.mismatch(.object(expected), answer) {
                    return .failed("data protection of \(identity ?? "no identity")", ["\(miss)"])
                }
                return .passed("\(identity ?? "no identity")\(answer["managed"] == true ? " (managed)" : " (unmanaged)")")
            case .expectApp(let expected):
                let answer = try await context.stack.client.app()
                if let miss = JSONPattern.mismatch(.object(expected), answer) { return .failed("the app's accounts", ["\(miss)"]) }
                return .passed("registered \(answer["registeredAccounts"]?.encodedString() ?? "[]"), managed \(answer["managedAccount"]?.stringValue ?? "none")")
            case .expectSettings(let expected):
                var answer = try await context.stack.client.settings()
                if case .object(var object) = answer, let authority = object["authority"]?.stringValue {
                    object["authorityPath"] = .string(String(authority.dropFirst((MockAdmin.origin(ofAuthority: authority) ?? "").count)))
                    answer = .object(object)
                }
                if let miss = JSONPattern.mismatch(.object(expected), answer) { return .failed("the app's settings", ["\(miss)"]) }
                return .passed("client \(answer["clientId"]?.stringValue ?? "?"), authority \(answer["authorityPath"]?.stringValue ?? "?")")
            case .expectIdentity(let expected):
                let answer = try await context.stack.client.identity()
                if let miss = JSONPattern.mismatch(.object(expected), answer) { return .failed("the app's identities", ["\(miss)"]) }
                return .passed("effective UI identity \(answer["effectiveUIIdentity"]?.stringValue.map { $0.isEmpty ? "no user" : $0 } ?? "?")")
            case .expectDecision(let kind, let question, let expected):
                return try await checkDecision(kind, question, expected, context)
            case .expectAppConfig(let account, let key, let query, let expected):
                let answer = try await context.stack.client.appConfig(account, key: key, query: query)
                if let miss = JSONPattern.mismatch(.object(expected), answer) {
                    return .failed("app configuration of \(account)\(key.map { " (\($0))" } ?? "")", ["\(miss)"])
                }
                return .passed("\(account): \(answer["fullData"]?.arrayValue?.count ?? 0) configuration(s)")
            case .expectRequests(let patterns, let absent, let counts):
                guard let admin = context.stack.admin else {
                    return .failed("the issuer at \(context.stack.authority) has no admin API (step \(step.index)): expectRequests reads mockauth's request log")
                }
                let requests = Array(try await admin.requests().dropFirst(context.requestsBefore))
                let users = Set(requests.compactMap { $0["user"]?.stringValue?.lowercased() }).union(flow.actedAccounts)
                if let unseen = Sequences.unseenName("user", in: absent + counts.map(\.pattern), seen: users, what: "request") { return unseen }
                return Sequences.check(
                    requests, patterns, absent: absent, counts: counts, what: "request", describe: Sequences.describeRequest, matches: JSONPattern.matches)
            default:
                preconditionFailure("not a check: \(step.action.summary)")
            }
        } catch let error as ControlClientError {
            return StepCheck(passed: false, detail: "no answer from the daemon: \(error.message)", daemonProblem: error.apiCode == nil)
        } catch {
            return .failed("\(error)")
        }
    }

    private func checkAccount(_ account: String, _ fields: JSONObject, _ context: RunContext) async throws -> StepCheck {
        var actual: JSONObject = ["known": false]
        if let answer = try await Self.unlessUnknown({ () async throws(ControlClientError) in try await context.stack.client.account(account) }) {
            actual = [
                "known": true, "signedIn": answer["signedIn"] ?? .null, "managed": answer["managed"] ?? .null,
                "compliance": answer["compliance"]?["code"] ?? .null, "enrollment": answer["enrollment"]?["state"] ?? .null,
                "lastEnrollmentStatus": answer["enrollment"]?["lastStatus"]?["code"] ?? .null, "remediation": answer["remediation"] ?? .null,
                "wipe": answer["wipe"] ?? .null, "dataFiles": answer["dataFiles"] ?? .null,
            ]
        }
        var mismatches: [String] = []
        if actual["known"] == false, fields["known"] != false, fields.keys.contains(where: { $0 != "known" }) {
            mismatches.append("account: the daemon has no account \(account), so \(fields.keys.filter { $0 != "known" }.joined(separator: ", ")) cannot be checked")
            return StepCheck(passed: false, detail: "\(account) is unknown", mismatches: mismatches)
        }
        for (key, wanted) in fields where actual[key] != wanted && JSONPattern.mismatch(wanted, actual[key]) != nil {
            mismatches.append("\(key): expected \(Self.describe(key, wanted)), got \(Self.describe(key, actual[key] ?? .null))")
        }
        let shown = fields.keys.map { "\($0) \(Self.describe($0, actual[$0] ?? .null))" }.joined(separator: ", ")
        return StepCheck(passed: mismatches.isEmpty, detail: shown, mismatches: mismatches)
    }

    /// The answer of `call`, or nil when the daemon does not know the account.
    static func unlessUnknown(_ call: () async throws(ControlClientError) -> JSONValue) async throws(ControlClientError) -> JSONValue? {
        do {
            return try await call()
        } catch {
            if error.apiCode == "unknown_account" { return nil }
            throw error
        }
    }

    static func describe(_ key: String, _ value: JSONValue) -> String {
        guard let code = value.intValue else { return "\(value)" }
        switch key {
        case "compliance": return StatusNames.describeCompliance(Int(code))
        case "lastEnrollmentStatus": return StatusNames.describeEnrollment(Int(code))
        default: return "\(value)"
        }
    }

    private func checkData(
        _ account: String, present: [String], absent: [String], contents: [(String, String)], encrypted: [String], plain: [String], _ context: RunContext
    ) async throws -> StepCheck {
        let client = context.stack.client
        guard let listing = try await Self.unlessUnknown({ () async throws(ControlClientError) in try await client.listData(account) }) else {
            return .failed("\(account) is unknown", ["account: the daemon has no account \(account), so none of its files can be checked"])
        }
        let names = listing["files"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        var mismatches: [String] = []
        for name in present where !names.contains(name) { mismatches.append("\(name): expected present, but \(account) has [\(names.joined(separator: ", "))]") }
        for name in absent where names.contains(name) { mismatches.append("\(name): expected absent, but it is there") }
        // Encrypted at rest or not, as the vault lists it; a file not there fails either way.
        let isEncrypted = Dictionary(
            (listing["files"]?.arrayValue ?? []).compactMap { file in file["name"]?.stringValue.map { ($0, file["encrypted"]?.boolValue == true) } },
            uniquingKeysWith: { first, _ in first })
        for (list, wanted) in [(encrypted, true), (plain, false)] {
            for name in list {
                guard let actual = isEncrypted[name] else {
                    mismatches.append("\(name): expected \(wanted ? "encrypted" : "plain"), but \(account) has no such file (it has [\(names.joined(separator: ", "))])")
                    continue
                }
                if actual != wanted { mismatches.append("\(name): expected \(wanted ? "encrypted" : "plain (not encrypted)"), but it is \(actual ? "encrypted" : "plain")") }
            }
        }
        for (name, text) in contents {
            guard names.contains(name) else {
                mismatches.append("\(name): expected content \"\(text)\", but \(account) has no such file (it has [\(names.joined(separator: ", "))])")
                continue
            }
            let bytes = try await client.getData(account, name: name)
            let actual = String(decoding: bytes, as: UTF8.self)
            if actual != text { mismatches.append("\(name): expected content \"\(text)\", got \"\(actual.prefix(200))\"") }
        }
        return StepCheck(passed: mismatches.isEmpty, detail: "\(account) has [\(names.joined(separator: ", "))]", mismatches: mismatches)
    }
}

/// Ordered-subsequence checks over events and requests.
enum Sequences {
    /// `patterns` occur in order among `items`, none of `absent` occurs, and each counted
    /// pattern matches exactly its `count` items.
    static func check(
        _ items: [JSONValue], _ patterns: [JSONValue], absent: [JSONValue], counts: [CountedPattern] = [], what: String,
        describe: (JSONValue) -> String, matches: (JSONValue, JSONValue) -> Bool
    ) -> StepCheck {
        var position = 0
        for (number, pattern) in patterns.enumerated() {
            guard let found = items[position...].firstIndex(where: { matches(pattern, $0) }) else {
                let after = position == 0 ? "" : " after \(describe(items[position - 1]))"
                let seen = items.map(describe)
                return .failed(
                    "\(what) \(number + 1) of \(patterns.count) not found in order",
                    ["expected \(what) \(pattern)\(after); the flow's \(what)s: \(seen.suffix(25).joined(separator: " | "))"])
            }
            position = found + 1
        }
        for pattern in absent {
            if let hit = items.first(where: { matches(pattern, $0) }) {
                return .failed("an unwanted \(what) happened", ["expected no \(what) like \(pattern), got \(describe(hit))"])
            }
        }
        var miscounted: [String] = []
        for counted in counts {
            let hits = items.filter { matches(counted.pattern, $0) }
            if hits.count != counted.count {
                let shown = hits.isEmpty ? "" : ": \(hits.suffix(10).map(describe).joined(separator: " | "))"
                miscounted.append("expected \(counted.count) \(what)\(counted.count == 1 ? "" : "s") like \(counted.pattern), got \(hits.count)\(shown)")
            }
        }
        if !miscounted.isEmpty {
            return .failed("\(miscounted.count) of \(counts.count) counted \(what) pattern\(counts.count == 1 ? "" : "s") miscounted", miscounted)
        }
        var parts = ["\(patterns.count) in order among \(items.count)"]
        if !absent.isEmpty { parts.append("none of \(absent.count) unwanted") }
        if !counts.isEmpty { parts.append("\(counts.count) counted") }
        return .passed(parts.joined(separator: ", "))
    }

    /// A failed check when a pattern of `patterns` names a `key` (an account, a user) that
    /// `seen` does not hold (those logged, and those the flow's steps act on): an `absent` or
    /// counted pattern naming someone who never took part (a misspelt UPN) would pass without
    /// checking anything. Names compare ignoring case.
    static func unseenName(_ key: String, in patterns: [JSONValue], seen: Set<String>, what: String) -> StepCheck? {
        let known = Set(seen.map { $0.lowercased() })
        for pattern in patterns {
            guard let name = pattern[key]?.stringValue, !known.contains(name.lowercased()) else { continue }
            return .failed(
                "a pattern names \(key) \(name), who takes no part in this flow",
                ["\(key): \(name) has no \(what) since the flow started and no step acts on it, so a pattern about it cannot fail; known: [\(known.sorted().joined(separator: ", "))]"])
        }
        return nil
    }

    /// An event pattern: `kind` equal, `account` equal ignoring case, `payload` partially.
    static func eventMatches(_ pattern: JSONValue, _ event: JSONValue) -> Bool {
        guard pattern["kind"] == event["kind"] else { return false }
        if let account = pattern["account"] {
            guard account.stringValue?.lowercased() == event["account"]?.stringValue else { return false }
        }
        if let payload = pattern["payload"] { return JSONPattern.matches(payload, event["payload"]) }
        return true
    }

    static func describeEvent(_ event: JSONValue) -> String {
        let status = event["payload"]?["status"]?.intValue.map { " \($0)" } ?? event["payload"]?["report"]?["status"]?["name"]?.stringValue.map { " \($0)" } ?? ""
        return "#\(event["seq"]?.intValue ?? 0) \(event["kind"]?.stringValue ?? "?")\(status) \(event["account"]?.stringValue ?? "")"
            .trimmingTrailingSpace()
    }

    static func describeRequest(_ request: JSONValue) -> String {
        "\(request["method"]?.stringValue ?? "?") \(request["route"]?.stringValue ?? request["path"]?.stringValue ?? "?") → \(request["status"]?.intValue ?? 0)"
    }
}

extension String {
    func trimmingTrailingSpace() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
