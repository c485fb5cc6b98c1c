import Foundation
import ControlClient
import JSON

/// Daemon actions: the call, then the step's `expect` against the answer.
extension FlowRunner {
    func runDaemonAction(_ step: FlowStep, _ context: RunContext) async -> StepCheck {
        let answer: JSONValue
        do {
            answer = try await call(step.action, context)
        } catch {
            return await failedCall(error, step, context)
        }
        if let refusal = step.expect.error {
            return .failed("the daemon answered, but the step expected it to refuse with '\(refusal)'", ["error: expected \(refusal), got success: \(AnswerText.brief(answer, limit: 200))"])
        }
        let view = AnswerView(answer)
        let mismatches = view.mismatches(step.expect)
        return StepCheck(passed: mismatches.isEmpty, detail: view.summary, mismatches: mismatches)
    }

    private func call(_ action: StepAction, _ context: RunContext) async throws(ControlClientError) -> JSONValue {
        let client = context.stack.client
        switch action {
        case .signIn(let account, let user, let silent, let scopes):
            return try await client.signIn(account, silent: silent, scopes: scopes, user: user.client)
        case .token(let account, let scopes, let user, let interactive, let remediate):
            return try await client.token(account, scopes: scopes, silent: !interactive, remediate: remediate, user: user.client)
        case .remediate(let account, let user, let silent):
            return try await client.remediate(account, silent: silent, user: user.client)
        case .deregister(let account, let wipe):
            return try await client.deregister(account, wipe: wipe)
        case .putData(let account, let name, let text):
            return try await client.putData(account, name: name, bytes: Array(text.utf8))
        case .removeData(let account, let name):
            return try await client.removeData(account, name: name)
        case .readData(let account, let name):
            let bytes = try await client.getData(account, name: name)
            return ["account": .string(account), "name": .string(name), "text": .string(String(decoding: bytes, as: UTF8.self))]
        case .setUIIdentity(let identity, let cancel):
            return try await client.switchUIIdentity(identity, cancelConditionalLaunch: cancel)
        case .setProcessIdentity(let identity):
            return try await client.setProcessIdentity(identity)
        case .sdkEnrolls(let account):
            return try await client.sdkEnrolled(account)
        case .overrideSettings(var changes):
            // An authority given as a path is on the flow's issuer (its port is known only now).
            if let path = changes["aadAuthorityUriOverride"]?.stringValue, path.hasPrefix("/") {
                changes["aadAuthorityUriOverride"] = .string((MockAdmin.origin(ofAuthority: context.stack.authority) ?? context.stack.authority) + path)
            }
            return try await client.setSettingsOverrides(changes)
        case .advanceClock(let seconds, _):
            guard let admin = context.stack.admin else { return try await client.advanceClock(seconds: seconds) }
            return try await Self.advanceWithMock(seconds, client: client, admin: admin)
        case .appRestarted:
            return try await client.appRestarted()
        default:
            preconditionFailure("not a daemon action: \(action.summary)")
        }
    }

    /// Moves a mockauth issuer's clock with the daemon's, so the issuer judges token, code and
    /// device-code lifetimes by the flow's time. The advance goes from due timer to due timer
    /// (the accounts' `nextDueAt`), the mock's clock first each time: what a timer's work asks
    /// of the issuer (a refreshed MAM token at a check-in) is issued at the daemon's time, never
    /// before it. The answer is the daemon's, its `fired` timers gathered over the steps.
    static func advanceWithMock(_ seconds: Int64, client: ControlClient, admin: MockAdmin) async throws(ControlClientError) -> JSONValue {
        var remaining = seconds
        var fired: [JSONValue] = []
        var from: JSONValue?
        var last: JSONValue = [:]
        repeat {
            let now = try await client.clock()["now"]?.intValue ?? 0
            let dues = (try await client.accounts()["accounts"]?.arrayValue ?? []).compactMap { $0["enrollment"]?["nextDueAt"]?.intValue }
            let step = dues.filter { $0 > now }.min().map { min(remaining, max(1, ($0 - now + 999) / 1000)) } ?? remaining
            try await Self.moveMock(admin, to: now + step * 1000)
            last = try await client.advanceClock(seconds: step)
            if from == nil { from = last["from"] }
            fired += last["fired"]?.arrayValue ?? []
            remaining -= step
        } while remaining > 0
        guard var answer = last.objectValue else { return last }
        answer["from"] = from ?? answer["from"]
        answer["fired"] = .array(fired)
        return .object(answer)
    }

    /// Moves the mock's clock (the wall clock plus its offset; it only moves forward) to `time`
    /// (milliseconds since 1970) when it is behind it: after an advance the daemon refused, the
    /// mock is not moved twice.
    private static func moveMock(_ admin: MockAdmin, to time: Int64) async throws(ControlClientError) {
        do {
            let offset = try await admin.call("POST", "clock/advance", ["seconds": 0])["clockOffsetSeconds"]?.doubleValue ?? 0
            let mockNow = Int64((Date().timeIntervalSince1970 + offset) * 1000)
            guard time > mockNow else { return }
            _ = try await admin.call("POST", "clock/advance", ["seconds": .int((time - mockNow + 999) / 1000)])
        } catch {
            throw ControlClientError(.invalidResponse, "the mock issuer's clock cannot be moved with the daemon's: \(error)")
        }
    }

    /// A call without an answer: an armed crash, a refusal the step may expect, or a failure.
    private func failedCall(_ error: ControlClientError, _ step: FlowStep, _ context: RunContext) async -> StepCheck {
        if error.apiCode == nil, context.armedCrash != nil, await context.stack.waitForDaemonExit() {
            return context.judgeArmedCrash()
        }
        guard let code = error.apiCode else {
            let exit = context.stack.daemonExit.map { " (complianced \($0))" } ?? ""
            return StepCheck(passed: false, detail: "no answer from the daemon\(exit): \(error.message)", daemonProblem: true)
        }
        guard let expected = step.expect.error else {
            return .failed("the daemon refused: \(code): \(error.message)")
        }
        var mismatches: [String] = []
        if expected != code { mismatches.append("error: expected \(expected), got \(code) (\(error.message))") }
        if let text = step.expect.messageContains, !error.message.contains(text) {
            mismatches.append("message: expected it to contain \"\(text)\", got \"\(error.message)\"")
        }
        return StepCheck(passed: mismatches.isEmpty, detail: "refused: \(code): \(error.message)", mismatches: mismatches)
    }
}

extension StepAction.User {
    var client: ControlClient.User? {
        switch self {
        case .none: nil
        case .password(let password): .signIn(password: password)
        case .passwordGrant(let password): .passwordGrant(password: password)
        case .cancel: .cancel
        }
    }
}

/// The facts of a daemon answer that steps check, wherever the route puts them.
struct AnswerView {
    let answer: JSONValue

    init(_ answer: JSONValue) { self.answer = answer }

    var report: JSONValue? { answer["report"].flatMap { $0 == .null ? nil : $0 } }
    var statusCode: Int64? { answer["status"]?["code"]?.intValue ?? report?["status"]?["code"]?.intValue }
    var enrollmentStatus: JSONValue {
        let value = report?["enrollmentStatus"] ?? answer["enrollmentStatus"]
        return value?["code"] ?? .null
    }
    /// The report's message, else the failure's, else an identity switch's detail.
    var message: String {
        report?["message"]?.stringValue ?? answer["failure"]?["message"]?.stringValue ?? answer["detail"]?.stringValue ?? ""
    }
    var claims: JSONValue? { answer["token"]?["claims"] }
    var fired: [String] { answer["fired"]?.arrayValue?.compactMap { $0["timer"]?.stringValue } ?? [] }

    func mismatches(_ expect: StepExpectation) -> [String] {
        var result: [String] = []
        if let status = expect.status?.intValue, statusCode != status {
            result.append("status: expected \(StatusNames.describeCompliance(Int(status))), got \(statusCode.map { StatusNames.describeCompliance(Int($0)) } ?? "none")")
        }
        if let signedIn = expect.signedIn, answer["signedIn"]?.boolValue != signedIn {
            result.append("signedIn: expected \(signedIn), got \(answer["signedIn"].map { "\($0)" } ?? "nothing")")
        }
        if let wanted = expect.enrollmentStatus, JSONPattern.mismatch(wanted, enrollmentStatus) != nil {
            result.append("enrollmentStatus: expected \(Self.describeEnrollment(wanted)), got \(Self.describeEnrollment(enrollmentStatus))")
        }
        if let fromCache = expect.fromCache, answer["fromCache"]?.boolValue != fromCache {
            let got = answer["fromCache"]?.boolValue.map { $0 ? "from the cache" : "from the issuer" } ?? "no token"
            result.append("fromCache: expected \(fromCache ? "from the cache" : "from the issuer"), got \(got)")
        }
        if let remediated = expect.remediated, answer["remediated"]?.boolValue != remediated {
            result.append("remediated: expected \(remediated), got \(answer["remediated"].map { "\($0)" } ?? "nothing")")
        }
        if let token = expect.token {
            if token == false {
                if let claims { result.append("token: expected none, got one for \(claims["upn"] ?? .null) with scp \(claims["scp"] ?? .null)") }
            } else if let miss = JSONPattern.mismatch(token, claims) {
                result.append("token claims: \(miss)")
            }
        }
        if let failure = expect.failure, let miss = JSONPattern.mismatch(failure, answer["failure"] ?? .null) {
            result.append("failure: \(miss)")
        }
        if let text = expect.messageContains, !message.contains(text) {
            result.append("message: expected it to contain \"\(text)\", got \"\(message)\"")
        }
        if let wiped = expect.wiped, answer["wiped"]?.boolValue != wiped {
            result.append("wiped: expected \(wiped), got \(answer["wiped"].map { "\($0)" } ?? "nothing")")
        }
        if let timers = expect.fired, timers != fired {
            result.append("fired: expected \(timers), got \(fired)")
        }
        if let wanted = expect.result, answer["result"]?.stringValue != wanted {
            let detail = answer["detail"]?.stringValue.map { " (\($0))" } ?? ""
            result.append("result: expected \(wanted), got \(answer["result"]?.stringValue ?? "none")\(detail)")
        }
        if let text = expect.text, answer["text"]?.stringValue != text {
            result.append("text: expected \"\(text)\", got \(answer["text"].map { $0.encodedString() } ?? "nothing")")
        }
        return result
    }

    static func describeEnrollment(_ value: JSONValue) -> String {
        value.intValue.map { StatusNames.describeEnrollment(Int($0)) } ?? "none"
    }

    /// One line for progress: the status and what came with it.
    var summary: String {
        var parts: [String] = []
        if let statusCode { parts.append(StatusNames.describeCompliance(Int(statusCode))) }
        if let result = answer["result"]?.stringValue { parts.append(result + (answer["conditionalLaunch"] == "pin" ? " (PIN asked)" : "")) }
        if let signedIn = answer["signedIn"]?.boolValue { parts.append(signedIn ? "signed in" : "not signed in") }
        if answer["remediated"]?.boolValue == true { parts.append("remediated") }
        if let codes = answer["failure"]?["errorCodes"], codes != .array([]), codes != .null { parts.append("server said \(codes)") }
        if enrollmentStatus != .null { parts.append("enrollment \(Self.describeEnrollment(enrollmentStatus))") }
        if let cc = claims?["xms_cc"] { parts.append("token xms_cc \(cc)") } else if answer["token"] != nil { parts.append("token") }
        if let fromCache = answer["fromCache"]?.boolValue { parts.append(fromCache ? "from the cache" : "from the issuer") }
        if answer["wiped"]?.boolValue == true { parts.append("wiped") }
        if answer["fired"] != nil { parts.append(fired.isEmpty ? "no timers fired" : "fired \(fired.joined(separator: ", "))") }
        if let size = answer["size"]?.intValue { parts.append("\(size) bytes\(answer["encrypted"]?.boolValue == true ? ", encrypted" : "")") }
        if let removed = answer["removed"]?.boolValue { parts.append(removed ? "removed" : "was not there") }
        return parts.isEmpty ? "ok" : parts.joined(separator: ", ")
    }
}
