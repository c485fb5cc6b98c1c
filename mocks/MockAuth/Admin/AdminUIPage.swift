import Foundation
import JSON

/// `GET /_admin/ui`: a read-only HTML view of the mock for a person (the debugger page of
/// other mock issuers): tenant and apps, users, conditional-access and MAM assignments, the
/// policy and its allowed accounts, enrollments and pending wipes, armed faults and the newest
/// request-log lines.
///
/// Self-contained (inline CSS, no script, no external assets). Shows no secret: users'
/// passwords, clients' secrets, codes and tokens are not read here, and the request log holds
/// none (no bodies, headers or query strings; secret-looking path segments are redacted when
/// logged, and again here). Every value goes through ``SignInPage/escape(_:)``.
enum AdminUIPage {
    /// Users shown in the tables; generated load users can number 100 000.
    static let userLimit = 200
    /// Request-log lines shown, newest first.
    static let requestLimit = 100

    static func render(state: MockState) -> String {
        let directory = state.directory
        let now = state.now()
        let users = directory.users
        let shownUsers = users.prefix(userLimit)
        let policy = directory.mamPolicy
        let apps = policy.appIds.isEmpty ? directory.clients.filter(\.isPublic).map(\.clientId) : policy.appIds
        let enrollments = state.enrollments.values.sorted { $0.enrolledAt < $1.enrolledAt }
        let wipes = state.pendingWipeList
        let faults = state.faultRules()
        let log = state.requestLogEntries()
        let clockOffset = state.clockOffset
        let caStatus = state.caErrorStatus
        let time = TimeFormat()

        var compliantByUser: [String: [String]] = [:]
        for user in shownUsers {
            compliantByUser[user.upn.lowercased()] = apps.filter { state.isCompliant(AccountApp(upn: user.upn, appId: $0)) }
        }
        let targeted = users.filter(\.caTargeted).count
        let assigned = users.filter(\.mamPolicyAssigned).count

        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
            <title>mockauth admin — \(e(directory.tenant.displayName))</title>
            <style>\(styles)</style></head>
            <body>
            <header><div class="wrap"><h1>mockauth admin</h1>
            <p class="sub">\(e(directory.tenant.displayName)) &middot; <code>\(e(directory.tenant.domain))</code> &middot; tenant id <code>\(e(directory.tenant.id))</code></p>
            <p class="sub">Read-only view of the mock's state at \(e(time.full(now))) (mock clock). Change it with the JSON admin API under <code>/_admin/</code>; reload to refresh.</p>
            </div></header>
            <main class="wrap">
            <section class="stats" aria-label="Summary">
            \(stat("Users", "\(users.count)"))
            \(stat("CA targeted", "\(targeted)"))
            \(stat("MAM policy assigned", "\(assigned)"))
            \(stat("Enrollments", "\(enrollments.count)"))
            \(stat("Armed faults", "\(faults.count)", alert: !faults.isEmpty))
            \(stat("Clock offset", clockOffset == 0 ? "none" : "+\(Self.seconds(clockOffset))", alert: clockOffset != 0))
            \(stat("CA answer status", "HTTP \(caStatus)", alert: caStatus != 400))
            </section>

            """

        // Applications: registrations, never their secrets.
        html += section("Applications", id: "applications") {
            table(["Client id", "Display name", "Type", "Redirect URIs"], directory.clients.map { client in
                [
                    "<code>\(e(client.clientId))</code>", e(client.displayName),
                    client.isPublic ? "public" : "confidential",
                    client.allRedirectURIs.isEmpty ? "<span class=\"muted\">none</span>"
                        : client.allRedirectURIs.map { "<code>\(e($0))</code>" }.joined(separator: "<br>"),
                ]
            }, empty: "No applications.")
        }

        html += section("Users", id: "users", note: more(users.count)) {
            table(["UPN", "Display name", "Object id", "Licensed"], shownUsers.map { user in
                ["<code>\(e(user.upn))</code>", e(user.displayName), "<code>\(e(user.objectId))</code>", yesNo(user.licensed)]
            }, empty: "No users.")
        }

        html += section(
            "Conditional access", id: "conditional-access",
            note: "App-protection policy: a targeted user's token requests are refused (AADSTS53005 / 53009, HTTP \(caStatus)) until the app reports compliance."
                + (more(users.count).map { " " + $0 } ?? "")
        ) {
            table(["UPN", "CA targeted", "Compliant apps"], shownUsers.map { user in
                let compliant = compliantByUser[user.upn.lowercased()] ?? []
                return [
                    "<code>\(e(user.upn))</code>", yesNo(user.caTargeted),
                    compliant.isEmpty ? "<span class=\"muted\">none</span>" : compliant.map { badge($0, "ok") }.joined(separator: " "),
                ]
            }, empty: "No users.")
        }

        html += section("MAM policy", id: "mam-policy") {
            var body = "<dl class=\"facts\">"
            body += "<dt>Policy</dt><dd><code>\(e(policy.id))</code></dd>"
            body += "<dt>Version</dt><dd>\(policy.version) <span class=\"muted\">(etag <code>\(e(policy.etag))</code>)</span></dd>"
            body += "<dt>Apps</dt><dd>\(policy.appIds.isEmpty ? "<span class=\"muted\">none</span>" : policy.appIds.map { "<code>\(e($0))</code>" }.joined(separator: ", "))</dd>"
            body += "<dt>Allowed accounts</dt><dd id=\"allowed-accounts\">"
            if let allowed = policy.allowedAccounts {
                body += allowed.isEmpty ? "<span class=\"muted\">nobody</span>"
                    : allowed.prefix(userLimit).map { "<code>\(e($0))</code>" }.joined(separator: ", ")
                        + (allowed.count > userLimit ? " <span class=\"muted\">… and \(allowed.count - userLimit) more</span>" : "")
            } else {
                body += "any account"
            }
            body += "</dd>"
            for (name, value) in policy.settings {
                body += "<dt>\(e(name))</dt><dd><code>\(e(value.encodedString()))</code></dd>"
            }
            body += "</dl>"
            body += "<h3>Assignments</h3>"
            body += table(["UPN", "MAM policy assigned", "Allowed by the policy"], shownUsers.map { user in
                ["<code>\(e(user.upn))</code>", yesNo(user.mamPolicyAssigned), yesNo(policy.allows(upn: user.upn))]
            }, empty: "No users.")
            if let note = more(users.count) { body += "<p class=\"muted\">\(e(note))</p>" }
            return body
        }

        html += section("Enrollments", id: "enrollments") {
            var body = table(["Enrollment id", "UPN", "App", "Policy version delivered", "Enrolled at", "Compliant"], enrollments.map { enrollment in
                [
                    "<code>\(e(enrollment.id))</code>", "<code>\(e(enrollment.account.upn))</code>", "<code>\(e(enrollment.account.appId))</code>",
                    enrollment.deliveredPolicyVersion.map(String.init) ?? "<span class=\"muted\">none</span>",
                    e(time.full(enrollment.enrolledAt)), yesNo(state.isCompliant(enrollment.account)),
                ]
            }, empty: "No app has enrolled.")
            body += "<h3>Pending wipes</h3>"
            body += wipes.isEmpty ? "<p class=\"empty\">No wipe queued.</p>"
                : table(["UPN", "App"], wipes.map { ["<code>\(e($0.upn))</code>", "<code>\(e($0.appId))</code>"] }, empty: "")
            return body
        }

        html += section("Armed faults", id: "faults") {
            table(["Id", "Route", "Remaining", "Delay", "Status", "Retry-After", "Action", "Bytes"], faults.map { rule in
                [
                    "\(rule.id)", "<code>\(e(rule.route))</code>", "\(rule.remaining)",
                    rule.delayMilliseconds == 0 ? "<span class=\"muted\">none</span>" : "\(rule.delayMilliseconds) ms",
                    rule.status.map { statusBadge($0) } ?? "<span class=\"muted\">route's own</span>",
                    rule.retryAfter.map { "\($0) s" } ?? "<span class=\"muted\">none</span>",
                    rule.action == .none ? "<span class=\"muted\">none</span>" : badge(rule.action.rawValue, "warn"),
                    rule.bytes.map(String.init) ?? "<span class=\"muted\">default</span>",
                ]
            }, empty: "No faults armed.")
        }

        let newest = log.suffix(requestLimit).reversed()
        html += section(
            "Request log", id: "requests",
            note: log.isEmpty ? nil : "Newest first; \(newest.count) of \(log.count) lines. Paths without query strings; no bodies or headers are kept."
        ) {
            table(["Time (UTC)", "Method", "Path", "Route", "Status", "Grant type", "User", "Fault"], newest.map { entry in
                [
                    "<span title=\"\(e(time.full(entry.time)))\">\(e(time.short(entry.time)))</span>",
                    e(entry.method),
                    "<code>\(e(RequestLogEntry.redacted(path: entry.path)))</code>",
                    entry.route.map { e($0) } ?? "<span class=\"muted\">none</span>",
                    entry.status.map { statusBadge($0) } ?? badge("no answer", "bad"),
                    entry.grantType.map { "<code>\(e($0))</code>" } ?? "",
                    entry.user.map { "<code>\(e(RequestLogEntry.redacted(path: $0)))</code>" } ?? "",
                    entry.fault.map { badge($0, "warn") } ?? "",
                ]
            }, empty: "No requests logged yet.")
        }

        html += """
            </main>
            <footer class="wrap">mockauth &middot; a mock Microsoft Entra ID issuer and Intune MAM service for tests &middot; JSON: <code>GET /_admin/state</code>, <code>/_admin/faults</code>, <code>/_admin/requests</code></footer>
            </body></html>
            """
        return html
    }

    // MARK: - Pieces

    private static func e(_ text: String) -> String { SignInPage.escape(text) }

    private static func more(_ count: Int) -> String? {
        count > userLimit ? "Showing the first \(userLimit) of \(count) users." : nil
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int64(value)) s" : String(format: "%.3f s", value)
    }

    private static func stat(_ label: String, _ value: String, alert: Bool = false) -> String {
        #"<div class="stat\#(alert ? " alert" : "")"><span class="value">\#(e(value))</span><span class="label">\#(e(label))</span></div>"#
    }

    private static func section(_ title: String, id: String, note: String? = nil, _ body: () -> String) -> String {
        let noteHTML = note.map { "<p class=\"note\">\(e($0))</p>" } ?? ""
        return "<section id=\"\(id)\" aria-labelledby=\"\(id)-title\"><h2 id=\"\(id)-title\">\(e(title))</h2>\(noteHTML)\n\(body())</section>\n"
    }

    /// A table; `rows` hold HTML already escaped.
    private static func table(_ headers: [String], _ rows: [[String]], empty: String) -> String {
        guard !rows.isEmpty else { return "<p class=\"empty\">\(e(empty))</p>" }
        var html = "<div class=\"scroll\"><table><thead><tr>"
        html += headers.map { "<th scope=\"col\">\(e($0))</th>" }.joined()
        html += "</tr></thead><tbody>\n"
        for row in rows {
            html += "<tr>" + row.map { "<td>\($0)</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody></table></div>"
    }

    private static func badge(_ text: String, _ kind: String) -> String {
        "<span class=\"badge \(kind)\">\(e(text))</span>"
    }

    private static func yesNo(_ flag: Bool) -> String {
        flag ? badge("yes", "yes") : badge("no", "no")
    }

    private static func statusBadge(_ status: Int) -> String {
        let kind = switch status {
        case 200..<300: "ok"
        case 300..<400: "info"
        case 400..<500: "warn"
        default: "bad"
        }
        return badge("\(status)", kind)
    }

    /// Formats times in UTC (a formatter per page: `DateFormatter` is not `Sendable`).
    private struct TimeFormat {
        let shortFormatter: DateFormatter
        let fullFormatter: DateFormatter

        init() {
            func formatter(_ format: String) -> DateFormatter {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = format
                return formatter
            }
            shortFormatter = formatter("HH:mm:ss.SSS")
            fullFormatter = formatter("yyyy-MM-dd HH:mm:ss 'UTC'")
        }

        func short(_ date: Date) -> String { shortFormatter.string(from: date) }
        func full(_ date: Date) -> String { fullFormatter.string(from: date) }
    }

    /// Holds no `<`, like the sign-in pages' style sheet.
    static let styles = """
        *{box-sizing:border-box}
        html,body{margin:0;padding:0}
        body{background:#f3f4f6;color:#1b1b1b;font-family:"Segoe UI","Helvetica Neue",Arial,"Liberation Sans",sans-serif;font-size:14px;line-height:1.4}
        .wrap{max-width:1200px;margin:0 auto;padding:0 24px}
        header{background:#0f2a4a;color:#fff;padding:18px 0 14px;margin-bottom:20px}
        header h1{margin:0 0 4px;font-size:22px;font-weight:600}
        header .sub{margin:2px 0;color:#c9d6e6;font-size:13px}
        header code{color:#fff;background:rgba(255,255,255,.12)}
        code{font-family:Consolas,"DejaVu Sans Mono",monospace;font-size:12.5px;background:#f0f2f5;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
        .stat{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:10px 16px;min-width:130px;display:flex;flex-direction:column}
        .stat .value{font-size:20px;font-weight:600}
        .stat .label{font-size:12px;color:#5f6b7a}
        .stat.alert{border-color:#f0b429;background:#fff8e6}
        section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:16px 20px;margin-bottom:18px}
        section.stats{display:flex;flex-wrap:wrap;gap:12px;margin-bottom:20px;background:none;border:0;padding:0}
        h2{font-size:17px;font-weight:600;margin:0 0 8px}
        h3{font-size:14px;font-weight:600;margin:16px 0 6px}
        .note{margin:0 0 10px;color:#5f6b7a;font-size:13px}
        .empty{margin:4px 0;color:#5f6b7a;font-style:italic}
        .muted{color:#8a94a3}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%}
        th{text-align:left;font-size:12px;font-weight:600;color:#5f6b7a;text-transform:uppercase;letter-spacing:.03em;border-bottom:2px solid #dde1e6;padding:6px 10px 6px 0;white-space:nowrap}
        td{border-bottom:1px solid #eceff3;padding:6px 10px 6px 0;vertical-align:top}
        tbody tr:hover{background:#f8fafc}
        .facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0 0 6px}
        .facts dt{font-weight:600;color:#5f6b7a}
        .facts dd{margin:0}
        .badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
        .badge.yes,.badge.ok{background:#dff6dd;color:#0b5a0b}
        .badge.no{background:#eceff3;color:#5f6b7a}
        .badge.info{background:#e1ecf7;color:#0f4c81}
        .badge.warn{background:#fff1d6;color:#8a5300}
        .badge.bad{background:#fde7e9;color:#a80000}
        footer{color:#5f6b7a;font-size:12px;padding-bottom:24px}
        """
}
