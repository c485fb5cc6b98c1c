import ComplianceCore
import JSON

/// Calls to the MAM service, each with a MAM-resource token acquired silently, and their
/// answers in the SDK's enrollment status codes.
extension Engine {
    /// A MAM call's end: the service's answer, or the status a failure maps to and why.
    enum MAMOutcome {
        /// The service answered; `status` is nil for a compliance report's own answer
        /// (`complianceStatus`), which the caller reads.
        case reply(EnrollmentStatus?, JSONObject)
        case failed(EnrollmentStatus, String)
    }

    enum MAMOperation {
        case enroll
        case checkIn(enrollmentID: String, policyVersion: Int64?)
        case unenroll(enrollmentID: String)
        case reportCompliance(enrollmentID: String, policyVersion: Int64?)

        var networkFailure: EnrollmentStatus {
            if case .enroll = self { return .enrollmentEndPointNetworkFailure }
            return .policyEndPointNetworkFailure
        }
    }

    /// Runs `operation` for `account`. A MAM token the cache cannot give silently is 203
    /// AuthRequired; transport failures are 205/212, 5xx 201, unusable answers 206.
    func callMAM(_ operation: MAMOperation, for account: AccountID) async -> MAMOutcome {
        let token: TokenSet
        switch await runTokenRequest(tokenRequest(account, scopes: [MAMClient.scope], allowInteraction: false), user: nil) {
        case .success(let tokens): token = tokens
        case .failure(let failure): return .failed(.authRequired, "no token for the MAM service: \(failure.message)")
        }
        if let hold = throttle.hold(.mam, now: clock.now) {
            // The service asked to wait (Retry-After): fail without sending.
            return .failed(.internalError, "the MAM service asked to wait (HTTP \(hold.status), Retry-After); not contacted for another \(hold.remaining.milliseconds / 1000) s")
        }
        let bearer = token.accessToken.reveal()
        let reply: MAMReply
        do {
            switch operation {
            case .enroll: reply = try await mam.enroll(appID: configuration.clientID, token: bearer)
            case .checkIn(let id, let version): reply = try await mam.checkIn(enrollmentID: id, policyVersion: version, token: bearer)
            case .unenroll(let id): reply = try await mam.unenroll(enrollmentID: id, token: bearer)
            case .reportCompliance(let id, let version): reply = try await mam.reportCompliance(enrollmentID: id, policyVersion: version, token: bearer)
            }
        } catch {
            if error.code == .serviceFailure, let status = error.httpStatus, status >= 500 || status == 429 {
                throttle.failed(.mam, status: status, retryAfter: error.retryAfterSeconds.map { .seconds(Int64($0)) }, now: clock.now)
            }
            let status: EnrollmentStatus = switch error.code {
            case .network: operation.networkFailure
            case .malformed: .parsingFailure
            case .unauthorized: .authRequired
            default: .internalError
            }
            return .failed(status, error.message)
        }
        if case .reportCompliance = operation, reply.json["complianceStatus"] != nil {
            return .reply(nil, reply.json)
        }
        guard let code = reply.statusCode, let status = EnrollmentStatus(rawValue: code) else {
            return .failed(.parsingFailure, "the MAM service's answer has no known enrollment status: \(JSONValue.object(reply.json).encodedString())")
        }
        return .reply(status, reply.json)
    }

    /// The policy a MAM answer carries, in ComplianceCore's shape (the version as a string).
    static func policy(from json: JSONValue?) -> (MAMPolicy, JSONValue)? {
        guard var object = json?.objectValue else { return nil }
        if let number = object["version"]?.intValue { object["version"] = .string(String(number)) }
        guard let policy = try? MAMPolicy(json: .object(object)) else { return nil }
        return (policy, .object(object))
    }

    /// Stores what an enroll answer says: the enrollment id and the policy.
    func saveRegistration(_ account: AccountID, reply: JSONObject) -> Bool {
        guard let id = reply["enrollmentId"]?.stringValue else { return false }
        let policy = Self.policy(from: reply["policy"])?.1
        do {
            try store.writeSync { transaction in
                if try transaction.account(account) == nil {
                    try transaction.upsertAccount(account, signedIn: false, managed: false)
                }
                try transaction.saveRegistration(MAMRegistration(account: account, enrollmentID: id, policy: policy))
            }
            return true
        } catch {
            logger.error("cannot store the MAM registration", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
            return false
        }
    }

    func registration(_ account: AccountID) -> MAMRegistration? {
        try? store.readSync { try $0.registration(for: account) }
    }

    /// Applies a policy for the app: stores it (and its file-encryption setting), sets
    /// `account`'s registration policy, and feeds the allowed accounts to their machine.
    func applyPolicy(_ policy: MAMPolicy, for account: AccountID) async {
        do {
            try store.writeSync { transaction in
                try transaction.savePolicy(
                    .app(configuration.clientID), version: policy.version, policy: policy.json,
                    allowedAccounts: policy.allowedAccounts.accounts?.map(\.upn))
                if var registration = try transaction.registration(for: account) {
                    registration.policy = policy.json
                    try transaction.saveRegistration(registration)
                }
            }
        } catch {
            logger.error("cannot store the policy", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
        }
        record("policyApplied", account: account, ["policyVersion": .string(policy.version)])
        await runAllowedAccounts(allowedAccountsStep { $0.allowedAccountsReceived(policy.allowedAccounts) })
    }

    /// Whether the app's current policy requires encrypting managed files.
    func fileEncryptionRequired() -> Bool {
        let record = try? store.readSync { try $0.policy(for: .app(configuration.clientID)) }
        return record?.policy["fileEncryptionRequired"]?.boolValue ?? false
    }
}
