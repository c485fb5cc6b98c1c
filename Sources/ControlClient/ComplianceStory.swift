import JSON

/// One account's compliance story, read from the daemon's event log (`GET /v1/events`) and,
/// when one is reachable, the mock issuer's request log: what `compliancectl explain` prints.
///
/// Pure: it takes the events as the control API gives them and returns lines and diagnoses.
/// The diagnoses name the loops app teams ask about most:
/// - ``Diagnosis/Kind/protectionRequiredAfterCompliant``: 53005 again after the MAM service
///   took a Compliant report (the issuer does not see that compliance);
/// - ``Diagnosis/Kind/policyWithoutCompliance``: policy received (100/101), then 53005 again,
///   with no compliance reported in between;
/// - ``Diagnosis/Kind/capabilityMissing``: 53009, the app does not declare `protapp`.
public struct ComplianceStory: Sendable {
    /// One line of the story: an event (or a request the mock saw) in order.
    public struct Line: Sendable, Hashable {
        /// The event's sequence number; nil for a line of the mock's request log.
        public var seq: Int64?
        /// Milliseconds since 1970 (events), or the mock's ISO 8601 time.
        public var time: String
        public var text: String
    }

    /// A known pattern found in the story, with the events that show it.
    public struct Diagnosis: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            case protectionRequiredAfterCompliant
            case policyWithoutCompliance
            case capabilityMissing
        }
        public var kind: Kind
        /// The events that show it (sequence numbers).
        public var evidence: [Int64]
        public var message: String
    }

    public let account: String
    public private(set) var lines: [Line] = []
    public private(set) var diagnoses: [Diagnosis] = []
    /// How many 53005 answers the story holds.
    public private(set) var protectionRequiredCount = 0

    /// Reads `events` (the control API's objects, in any order) for `account` (the account's
    /// key as the daemon writes it: lower-cased, NFC) and `requests` (mockauth's
    /// `GET /_admin/requests` entries; those of this user are kept).
    public init(account: String, events: [JSONValue], requests: [JSONValue] = []) {
        self.account = account
        let mine = events
            .filter { Self.concerns($0, account) }
            .sorted { ($0["seq"]?.intValue ?? 0) < ($1["seq"]?.intValue ?? 0) }
        for event in mine {
            let seq = event["seq"]?.intValue ?? 0
            let time = event["time"]?.intValue.map(String.init) ?? "?"
            lines.append(Line(seq: seq, time: time, text: Self.describe(event, account: account)))
            if Self.isProtectionRequired(event) { protectionRequiredCount += 1 }
        }
        for request in requests where request["user"]?.stringValue?.lowercased() == account {
            let status = request["status"]?.intValue.map(String.init) ?? "no answer"
            var text = "mock saw \(request["method"]?.stringValue ?? "?") \(request["path"]?.stringValue ?? "?") → \(status)"
            if let grant = request["grantType"]?.stringValue { text += " (grant \(grant))" }
            if let fault = request["fault"]?.stringValue { text += " [fault \(fault)]" }
            lines.append(Line(seq: nil, time: request["time"]?.stringValue ?? "?", text: text))
        }
        diagnoses = Self.diagnose(mine)
    }

    // MARK: - Reading events

    static func concerns(_ event: JSONValue, _ account: String) -> Bool {
        if event["account"]?.stringValue == account { return true }
        // App-wide: an allowed-accounts change that removed this account.
        guard event["kind"]?.stringValue == "allowedAccountsChanged" else { return false }
        return event["payload"]?["removed"]?.arrayValue?.contains(.string(account)) == true
    }

    static func errorCodes(_ event: JSONValue) -> [Int64] {
        event["payload"]?["errorCodes"]?.arrayValue?.compactMap(\.intValue) ?? []
    }

    static func isProtectionRequired(_ event: JSONValue) -> Bool {
        guard event["kind"]?.stringValue == "tokenFailed" else { return false }
        return errorCodes(event).contains(53005) || event["payload"]?["suberror"]?.stringValue == "protection_policy_required"
            || event["payload"]?["kind"]?.stringValue == "protectionPolicyRequired"
    }

    static func isCapabilityMissing(_ event: JSONValue) -> Bool {
        guard event["kind"]?.stringValue == "tokenFailed" else { return false }
        return errorCodes(event).contains(53009) || event["payload"]?["kind"]?.stringValue == "capabilityMissing"
    }

    /// `Compliant (0)` from `{"code": 0, "name": "Compliant"}`.
    static func status(_ value: JSONValue?) -> String {
        guard let value, let code = value["code"]?.intValue else { return "?" }
        return "\(value["name"]?.stringValue ?? "?") (\(code))"
    }

    static func describe(_ event: JSONValue, account: String) -> String {
        let payload = event["payload"] ?? .null
        let kind = event["kind"]?.stringValue ?? "?"
        let scopes = payload["scopes"]?.arrayValue?.compactMap(\.stringValue).joined(separator: " ") ?? ""
        switch kind {
        case "tokenFailed":
            var text: String
            if isProtectionRequired(event) {
                text = "53005 protection_policy_required for \(scopes): the issuer asks for app protection"
            } else if isCapabilityMissing(event) {
                text = "53009 for \(scopes): the issuer requires app protection and the app does not declare protapp"
            } else {
                let codes = errorCodes(event)
                text = "token refused for \(scopes): \(payload["kind"]?.stringValue ?? "failure")"
                if !codes.isEmpty { text += " AADSTS\(codes.map(String.init).joined(separator: ","))" }
                if let suberror = payload["suberror"]?.stringValue { text += " suberror \(suberror)" }
            }
            var identifiers: [String] = []
            if let id = payload["correlationId"]?.stringValue { identifiers.append("correlation id \(id)") }
            if let id = payload["traceId"]?.stringValue { identifiers.append("trace id \(id)") }
            if !identifiers.isEmpty { text += " (\(identifiers.joined(separator: ", ")))" }
            return text
        case "tokenAcquired":
            return "token for \(scopes), xms_cc \(payload["xmsCC"].map { $0.encodedString() } ?? "null")"
        case "remediationStarted":
            return "remediation started" + (payload["silent"]?.boolValue == true ? " (silent)" : "")
        case "enrollment", "policy", "unenroll":
            let code = payload["status"]?.intValue.map(String.init) ?? "?"
            return "\(kind): \(payload["statusName"]?.stringValue ?? "?") (\(code))"
        case "compliance":
            let report = payload["report"] ?? .null
            var text = "remediation report: \(status(report["status"]))"
            if let enrollment = report["enrollmentStatus"], enrollment != .null { text += " after \(status(enrollment))" }
            if let message = report["message"]?.stringValue { text += ": \(message)" }
            return text
        case "policyApplied":
            return "policy \(payload["policyVersion"]?.stringValue ?? "?") applied"
        case "appConfigChanged":
            return "app configuration changed"
        case "identitySwitched":
            let identity = payload["identity"]?.stringValue ?? ""
            var text = "UI identity switch to \(identity.isEmpty ? "no user" : identity): \(payload["result"]?.stringValue ?? "?")"
            if payload["conditionalLaunch"]?.stringValue == "pin" { text += " (PIN asked)" }
            if let detail = payload["detail"]?.stringValue { text += ": \(detail)" }
            return text
        case "settingsOverridden":
            let names = (payload["overrides"]?.objectValue ?? JSONObject()).filter { $0.1 != .null }.map(\.0)
            return names.isEmpty ? "runtime settings overrides cleared" : "runtime settings overridden: \(names.joined(separator: ", "))"
        case "settingsOverridesCleared":
            return "runtime settings overrides cleared: the user was unenrolled"
        case "identitySwitchRequired":
            let identity = payload["identity"]?.stringValue ?? ""
            return "the SDK asks the app to switch to \(identity.isEmpty ? "no user" : identity) (\(payload["reason"]?.stringValue ?? "?"))"
        case "policyAbsent":
            return payload["required"] == true ? "launched without the required app protection policy: blocked" : "launched without an app protection policy: warned"
        case "signInRefused":
            return "sign-in refused (\(payload["code"]?.stringValue ?? "?")): \(payload["message"]?.stringValue ?? "")"
        case "signedOut", "wipeStarted":
            return "\(kind == "signedOut" ? "signed out" : "selective wipe started") (\(payload["reason"]?.stringValue ?? "?"))"
        case "wipeHook":
            return "wipe hook: \(payload["outcome"]?.stringValue ?? "?")"
        case "restartApplication":
            let yes = payload["appHandlesRestart"] == true
            return "restartApplication \(yes ? "YES: the app restarts itself" : "NO: the SDK restarts the app") (hook \(payload["outcome"]?.stringValue ?? "?"))"
        case "allowedAccountsChanged":
            return "allowed accounts changed: \(account) is no longer allowed"
        default:
            let words = kind.reduce(into: "") { text, character in
                if character.isUppercase { text += " " }
                text += character.lowercased()
            }
            return words
        }
    }

    // MARK: - Diagnoses

    static func diagnose(_ events: [JSONValue]) -> [Diagnosis] {
        var found: [Diagnosis] = []
        var lastCompliant: Int64?
        var policyWithoutReport: Int64?
        var afterCompliant: [Int64] = []
        var withoutCompliance: [Int64] = []
        var missing: [Int64] = []
        for event in events {
            let seq = event["seq"]?.intValue ?? 0
            let payload = event["payload"] ?? .null
            switch event["kind"]?.stringValue {
            case "compliance":
                if payload["report"]?["status"]?["code"]?.intValue == 0 {
                    lastCompliant = seq
                    policyWithoutReport = nil
                }
            case "enrollment", "policy":
                if let code = payload["status"]?.intValue, code == 100 || code == 101 { policyWithoutReport = policyWithoutReport ?? seq }
            case "wipeStarted", "unenroll", "signedOut":
                // The device forgot its enrollment: a 53005 now is the expected first step again.
                lastCompliant = nil
                policyWithoutReport = nil
            case "tokenFailed":
                if isProtectionRequired(event) {
                    if let compliant = lastCompliant {
                        afterCompliant += afterCompliant.isEmpty ? [compliant, seq] : [seq]
                    } else if let policy = policyWithoutReport {
                        withoutCompliance += withoutCompliance.isEmpty ? [policy, seq] : [seq]
                    }
                } else if isCapabilityMissing(event) {
                    missing.append(seq)
                }
            default:
                break
            }
        }
        if !afterCompliant.isEmpty {
            found.append(Diagnosis(
                kind: .protectionRequiredAfterCompliant, evidence: afterCompliant,
                message: "53005 came back after the MAM service took a Compliant report (#\(afterCompliant[0]) → #\(afterCompliant[1])): "
                    + "the issuer does not see that compliance. Check that the token is asked for the same app (client id) and tenant "
                    + "that enrolled and reported, and that the conditional-access policy reads this MAM service's compliance state."))
        }
        if !withoutCompliance.isEmpty {
            found.append(Diagnosis(
                kind: .policyWithoutCompliance, evidence: withoutCompliance,
                message: "policy was received (#\(withoutCompliance[0])) but compliance was never reported before 53005 came again "
                    + "(#\(withoutCompliance[1])): the conditional-access check waits for a compliance report after the policy is "
                    + "applied (report-compliance), not for the enrollment alone."))
        }
        if !missing.isEmpty {
            found.append(Diagnosis(
                kind: .capabilityMissing, evidence: missing,
                message: "53009 (#\(missing[0])): the app does not declare the protapp client capability, so the issuer cannot ask "
                    + "for app protection (53005) and the request cannot be remediated. Add protapp to MSALClientCapabilities "
                    + "(compliancectl profile lint checks it)."))
        }
        return found
    }

    /// The story as JSON (`compliancectl explain --json`).
    public var json: JSONValue {
        .object([
            "account": .string(account),
            "protectionRequired": .int(Int64(protectionRequiredCount)),
            "story": .array(lines.map { line in
                .object(["seq": line.seq.map { .int($0) } ?? .null, "time": .string(line.time), "text": .string(line.text)])
            }),
            "diagnoses": .array(diagnoses.map { diagnosis in
                .object([
                    "kind": .string(diagnosis.kind.rawValue), "evidence": .array(diagnosis.evidence.map { .int($0) }),
                    "message": .string(diagnosis.message),
                ])
            }),
        ])
    }
}
