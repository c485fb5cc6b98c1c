import ComplianceCore
import JSON

/// One account's compliance story, read from the daemon's event log (`GET /v1/events`) and,
/// when one is reachable, the mock issuer's request log: what `compliancectl explain` prints.
///
/// Pure: it takes the events as the control API gives them and returns lines and diagnoses.
/// The diagnoses name only real loops (``diagnose(_:)`` says how each is recognised): a first
/// 53005, or one after the issuer forgot a compliance, is the normal start of a remediation.
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
    /// How the story ends: the last token answer or remediation report of the account
    /// (`Compliant`, a report's status name, or a refused token's failure kind), nil without one.
    public private(set) var ending: String?

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
            ending = Self.ending(of: event) ?? ending
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

    /// The kind of a logged event in the one vocabulary (``ComplianceEvent/Kind``); nil for a
    /// kind this build does not know.
    static func kind(_ event: JSONValue) -> ComplianceEvent.Kind? {
        event["kind"]?.stringValue.flatMap(ComplianceEvent.Kind.init(rawValue:))
    }

    /// Whether `event` belongs to `account`'s story (its own, or an allowed-list change that removed it).
    public static func concerns(_ event: JSONValue, _ account: String) -> Bool {
        if event["account"]?.stringValue == account { return true }
        // App-wide: an allowed-accounts change that removed this account.
        guard kind(event) == .allowedAccountsChanged else { return false }
        return event["payload"]?["removed"]?.arrayValue?.contains(.string(account)) == true
    }

    static func errorCodes(_ event: JSONValue) -> [Int64] {
        event["payload"]?["errorCodes"]?.arrayValue?.compactMap(\.intValue) ?? []
    }

    static func isProtectionRequired(_ event: JSONValue) -> Bool {
        guard kind(event) == .tokenFailed else { return false }
        return errorCodes(event).contains(53005) || event["payload"]?["suberror"]?.stringValue == "protection_policy_required"
            || event["payload"]?["kind"]?.stringValue == "protectionPolicyRequired"
    }

    static func isCapabilityMissing(_ event: JSONValue) -> Bool {
        guard kind(event) == .tokenFailed else { return false }
        return errorCodes(event).contains(53009) || event["payload"]?["kind"]?.stringValue == "capabilityMissing"
    }

    /// What a token answer or a remediation report says of the account's compliance.
    static func ending(of event: JSONValue) -> String? {
        let payload = event["payload"] ?? .null
        switch kind(event) {
        case .tokenAcquired?:
            return ComplianceStatusName.compliant
        case .tokenFailed?:
            return payload["kind"]?.stringValue ?? "failure"
        case .compliance?:
            return payload["report"]?["status"]?["name"]?.stringValue
        default:
            return nil
        }
    }

    /// `Compliant (0)` from `{"code": 0, "name": "Compliant"}`.
    static func status(_ value: JSONValue?) -> String {
        guard let value, let code = value["code"]?.intValue else { return "?" }
        return "\(value["name"]?.stringValue ?? "?") (\(code))"
    }

    static func describe(_ event: JSONValue, account: String) -> String {
        let payload = event["payload"] ?? .null
        let name = event["kind"]?.stringValue ?? "?"
        let scopes = payload["scopes"]?.arrayValue?.compactMap(\.stringValue).joined(separator: " ") ?? ""
        switch kind(event) {
        case .tokenFailed?:
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
        case .tokenAcquired?:
            return "token for \(scopes), xms_cc \(payload["xmsCC"].map { $0.encodedString() } ?? "null")"
        case .remediationStarted?:
            return "remediation started" + (payload["silent"]?.boolValue == true ? " (silent)" : "")
        case .enrollment?, .policy?, .unenroll?:
            let code = payload["status"]?.intValue.map(String.init) ?? "?"
            return "\(name): \(payload["statusName"]?.stringValue ?? "?") (\(code))"
        case .compliance?:
            let report = payload["report"] ?? .null
            var text = "remediation report: \(status(report["status"]))"
            if let enrollment = report["enrollmentStatus"], enrollment != .null { text += " after \(status(enrollment))" }
            if let message = report["message"]?.stringValue { text += ": \(message)" }
            return text
        case .policyApplied?:
            return "policy \(payload["policyVersion"]?.stringValue ?? "?") applied"
        case .appConfigChanged?:
            return "app configuration changed"
        case .identitySwitched?:
            let identity = payload["identity"]?.stringValue ?? ""
            var text = "UI identity switch to \(identity.isEmpty ? "no user" : identity): \(payload["result"]?.stringValue ?? "?")"
            if payload["conditionalLaunch"]?.stringValue == "pin" { text += " (PIN asked)" }
            if let detail = payload["detail"]?.stringValue { text += ": \(detail)" }
            return text
        case .settingsOverridden?:
            let names = (payload["overrides"]?.objectValue ?? JSONObject()).filter { $0.1 != .null }.map(\.0)
            return names.isEmpty ? "runtime settings overrides cleared" : "runtime settings overridden: \(names.joined(separator: ", "))"
        case .settingsOverridesCleared?:
            return "runtime settings overrides cleared: the user was unenrolled"
        case .identitySwitchRequired?:
            let identity = payload["identity"]?.stringValue ?? ""
            return "the SDK asks the app to switch to \(identity.isEmpty ? "no user" : identity) (\(payload["reason"]?.stringValue ?? "?"))"
        case .appAnsweredIdentity?:
            let identity = payload["identity"]?.stringValue ?? ""
            return "the app answered \(payload["call"]?.stringValue ?? "?") for \(identity.isEmpty ? "no user" : identity): \(payload["result"]?.stringValue ?? "?")"
        case .policyAbsent?:
            return payload["required"] == true ? "launched without the required app protection policy: blocked" : "launched without an app protection policy: warned"
        case .signInRefused?:
            return "sign-in refused (\(payload["code"]?.stringValue ?? "?")): \(payload["message"]?.stringValue ?? "")"
        case .signedOut?, .wipeStarted?:
            return "\(kind(event) == .signedOut ? "signed out" : "selective wipe started") (\(payload["reason"]?.stringValue ?? "?"))"
        case .wipeHookRan?:
            return "wipe hook: \(payload["outcome"]?.stringValue ?? "?")"
        case .restartApplicationAnswered?:
            let yes = payload["appHandlesRestart"] == true
            return "restartApplication \(yes ? "YES: the app restarts itself" : "NO: the SDK restarts the app") (hook \(payload["outcome"]?.stringValue ?? "?"))"
        case .allowedAccountsChanged?:
            return "allowed accounts changed: \(account) is no longer allowed"
        default:
            let words = name.reduce(into: "") { text, character in
                if character.isUppercase { text += " " }
                text += character.lowercased()
            }
            return words
        }
    }

    /// The story as JSON (`compliancectl explain --json`).
    public var json: JSONValue {
        .object([
            "account": .string(account),
            "protectionRequired": .int(Int64(protectionRequiredCount)),
            "ending": ending.map { .string($0) } ?? .null,
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

/// The SDK's name of the one status that carries a token.
enum ComplianceStatusName {
    static let compliant = "Compliant"
}
