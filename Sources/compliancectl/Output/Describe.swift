import Foundation
import JSON

/// Words for the daemon's JSON: statuses with their SDK code, reports, accounts, events.
enum Describe {
    /// `{"code": 0, "name": "Compliant"}` → `Compliant (0)`; null → `-`.
    static func status(_ value: JSONValue?) -> String {
        guard let value, let name = value["name"]?.stringValue, let code = value["code"]?.intValue else { return "-" }
        return "\(name) (\(code))"
    }

    /// Milliseconds since the epoch → ISO 8601 (UTC); null → `-`.
    static func time(_ value: JSONValue?) -> String {
        guard let milliseconds = value?.intValue else { return "-" }
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// A compliance report in a line: `Compliant (0), enrollment status … — title: message`.
    static func report(_ report: JSONValue?) -> String? {
        guard let report, report != .null else { return nil }
        var line = status(report["status"])
        if let enrollment = report["enrollmentStatus"], enrollment != .null { line += ", enrollment status \(status(enrollment))" }
        let text = [report["title"]?.stringValue ?? "", report["message"]?.stringValue ?? ""].filter { !$0.isEmpty }.joined(separator: ": ")
        return text.isEmpty ? line : "\(line) — \(text)"
    }

    /// A token's summary: scopes, expiry, the capability claim and where the answer came from
    /// (`fromCache` of the answer); never the token itself.
    static func token(_ token: JSONValue?, fromCache: JSONValue? = nil) -> [String] {
        guard let token, token != .null else { return [] }
        let scopes = token["scopes"]?.arrayValue?.compactMap(\.stringValue).joined(separator: " ") ?? ""
        var line = "token: \(scopes), expires \(time(token["expiresAt"]))"
        if let cc = token["claims"]?["xms_cc"], cc != .null { line += ", xms_cc \(cc)" }
        if let cached = fromCache?.boolValue { line += cached ? ", from the cache" : ", from the issuer" }
        return [line]
    }

    /// The failure that preceded or replaced a token (`protectionPolicyRequired`, 53005, …).
    static func failure(_ failure: JSONValue?) -> [String] {
        guard let failure, failure != .null else { return [] }
        var line = "server answer: \(failure["kind"]?.stringValue ?? "failure")"
        if let codes = failure["errorCodes"]?.arrayValue, !codes.isEmpty { line += " \(JSONValue.array(codes))" }
        if let suberror = failure["suberror"]?.stringValue { line += " suberror \(suberror)" }
        var lines = [line]
        if let message = failure["message"]?.stringValue, !message.isEmpty { lines.append("  " + (message.split(separator: "\n").first.map(String.init) ?? message)) }
        return lines
    }

    /// One event as a line: `#12 2026-11-22T10:00:00Z alice@contoso.com compliance {…}`.
    static func event(_ event: JSONValue) -> String {
        let seq = event["seq"]?.intValue.map { "#\($0)" } ?? "#?"
        let account = event["account"]?.stringValue ?? "-"
        let kind = event["kind"]?.stringValue ?? "?"
        let payload = event["payload"].map { $0 == .object(JSONObject()) ? "" : " \($0)" } ?? ""
        return "\(seq) \(time(event["time"])) \(account) \(kind)\(payload)"
    }

    /// The accounts table.
    static func accounts(_ accounts: [JSONValue]) -> String {
        var table = TextTable(["ACCOUNT", "SIGNED IN", "MANAGED", "COMPLIANCE", "ENROLLMENT", "LAST ENROLLMENT STATUS", "REMEDIATION", "WIPE", "FILES"])
        for account in accounts {
            table.add([
                account["account"]?.stringValue ?? "?",
                account["signedIn"]?.boolValue == true ? "yes" : "no",
                account["managed"]?.boolValue == true ? "yes" : "no",
                status(account["compliance"]),
                account["enrollment"]?["state"]?.stringValue ?? "-",
                status(account["enrollment"]?["lastStatus"]),
                account["remediation"]?.stringValue ?? "-",
                account["wipe"]?.stringValue ?? "-",
                account["dataFiles"]?.intValue.map(String.init) ?? "-",
            ])
        }
        return table.rendered
    }
}
