import ComplianceCore
import JSON

/// The JSON shapes the engine stores in its event log and the control API answers with.
public enum EngineJSON {
    /// `{"code": 0, "name": "Compliant"}`.
    public static func status(_ status: ComplianceStatus) -> JSONValue {
        ["code": .int(Int64(status.rawValue)), "name": .string(name(of: status))]
    }

    /// `{"code": 100, "name": "NewPoliciesReceived"}`.
    public static func status(_ status: EnrollmentStatus) -> JSONValue {
        ["code": .int(Int64(status.rawValue)), "name": .string(status.name)]
    }

    /// The SDK's name of a compliance status (`Compliant`, `NotCompliant`, …).
    public static func name(of status: ComplianceStatus) -> String {
        switch status {
        case .compliant: "Compliant"
        case .notCompliant: "NotCompliant"
        case .serviceFailure: "ServiceFailure"
        case .networkFailure: "NetworkFailure"
        case .interactionRequired: "InteractionRequired"
        case .userCancelled: "UserCancelled"
        }
    }

    /// `{"account", "status", "enrollmentStatus", "title", "message"}`.
    public static func report(_ report: ComplianceStatusReport) -> JSONValue {
        [
            "account": .string(report.account.key), "status": status(report.status),
            "enrollmentStatus": report.enrollmentStatus.map { status($0) } ?? .null,
            "title": .string(report.title), "message": .string(report.message),
        ]
    }

    /// An enrollment, policy or unenroll event's payload, as the SDK's IntuneMAMEnrollmentStatus
    /// reports it: `status` (statusCode), `statusName`, `didSucceed`, and `errorString` ("an
    /// error string with a description of the status code"; the SDK's own texts are not
    /// public, so these are ours, ``EnrollmentStatus/message``).
    static func enrollmentPayload(_ status: EnrollmentStatus) -> JSONValue {
        [
            "status": .int(Int64(status.rawValue)), "statusName": .string(status.name), "didSucceed": .bool(status.isSuccess),
            "errorString": .string(status.message),
        ]
    }

    /// A `setUIPolicyIdentity` answer: `{"identity": upn or "", "result", "conditionalLaunch", "detail"?}`.
    public static func identitySwitch(_ outcome: IdentitySwitch) -> JSONObject {
        var object: JSONObject = [
            "identity": .string(outcome.identity?.key ?? ""), "result": .string(outcome.result.rawValue),
            "conditionalLaunch": .string(outcome.conditionalLaunch.rawValue),
        ]
        if let detail = outcome.detail { object["detail"] = .string(detail) }
        return object
    }

    /// A log entry for an observer event: its kind, account and payload.
    static func event(_ event: ComplianceEvent) -> (kind: String, account: AccountID?, payload: JSONValue) {
        let (account, payload) = accountAndPayload(event)
        return (event.kind.rawValue, account, payload)
    }

    /// The account an event is about and its payload.
    private static func accountAndPayload(_ event: ComplianceEvent) -> (AccountID?, JSONValue) {
        switch event {
        case .enrollment(let report):
            (report.account, enrollmentPayload(report.status))
        case .policy(let report):
            (report.account, enrollmentPayload(report.status))
        case .unenroll(let report):
            (report.account, enrollmentPayload(report.status))
        case .compliance(let compliance):
            (compliance.account, ["report": Self.report(compliance)])
        case .allowedAccountsChanged(let old, let new, let removed):
            (nil, ["old": old.json, "new": new.json, "removed": .array(removed.map { .string($0.key) })])
        case .wipeStarted(let account, let reason):
            (account, ["reason": .string(reason.rawValue)])
        case .wipeFinished(let account):
            (account, [:])
        case .restartRequired(let account):
            (account, [:])
        case .restartApplicationAnswered(let account, let answer):
            (account, {
                var payload: JSONObject = ["appHandlesRestart": .bool(answer.appHandlesRestart), "outcome": .string(answer.outcome)]
                if let notice = answer.notice { payload["notice"] = .string(notice) }
                return .object(payload)
            }())
        case .remediationStarted(let account, let silent):
            (account, ["silent": .bool(silent)])
        case .wipeHookRan(let account, let outcome, let removed):
            (account, ["outcome": .string(outcome), "appRemovedData": .bool(removed)])
        case .signInRefused(let refusal):
            (refusal.account, ["code": .string(refusal.code.description), "message": .string(refusal.message)])
        case .signedIn(let account):
            (account, [:])
        case .signedOut(let account, let reason):
            (account, ["reason": .string(reason.rawValue)])
        case .tokenAcquired(let account, let scopes, let xmsCC):
            (account, ["scopes": .array(scopes.map { .string($0) }), "xmsCC": xmsCC])
        case .tokenFailed(let account, let scopes, let failure):
            (account, {
                var payload = Self.failure(failure)
                payload["scopes"] = .array(scopes.map { .string($0) })
                return .object(payload)
            }())
        case .policyApplied(let account, let version):
            (account, ["policyVersion": .string(version)])
        case .appRestarted(let account):
            (account, [:])
        case .appConfigChanged(let account):
            (account, [:])
        case .policyAbsent(let required):
            (nil, [
                "required": .bool(required),
                "message": .string(required
                    ? "This app requires your organization's app protection policy, and it has none yet: sign in with your work account to get it."
                    : "This app has no app protection policy from your organization; your work data is not protected here."),
            ])
        case .identitySwitched(let outcome):
            (outcome.identity, .object(identitySwitch(outcome)))
        case .settingsOverridden(let overrides):
            (nil, ["overrides": overrides.json])
        case .settingsOverridesCleared(let account):
            (account, ["reason": "unenrolled"])
        case .daemonStarted(let resumed, let clock):
            (nil, ["resumed": .int(Int64(resumed)), "clock": .string(clock)])
        case .timerFired(let account, let timer, let dueAt):
            (account, ["timer": .string(ComplianceEvent.timerName(timer)), "dueAt": .int(dueAt.millisecondsSinceEpoch)])
        case .clockAdvanced(let from, let to):
            (nil, ["from": .int(from.millisecondsSinceEpoch), "to": .int(to.millisecondsSinceEpoch)])
        case .dataReprotected(let account, let files):
            (account, [
                "files": .array(files.map { .string($0) }), "mode": .string(ProtectionMode.encrypted.rawValue),
                "reason": "fileEncryptionRequired",
            ])
        case .identitySwitchRequired(let account, let reason):
            (account, ["identity": .string(account?.key ?? ""), "reason": .string(reason.rawValue)])
        case .appAnsweredIdentity(let question, let answer):
            (question.identity, .object(appAnswer(question, answer)))
        }
    }
}

extension EngineJSON {
    /// `{"kind", "message", "errorCodes", "suberror"}` for a failed token request, plus the
    /// server's `correlationId` and `traceId` when it sent them, `grantedScopes` and
    /// `declinedScopes` for kind `declinedScopes`, and for a 53005 (kind
    /// `protectionPolicyRequired`) the account identifiers an app remediates with:
    /// `displayableId` (`adi`), `homeAccountId`, `objectId`, `tenantId`, `authority` (each
    /// when known).
    public static func failure(_ failure: TokenAcquisitionFailure) -> JSONObject {
        var server: ServerError?
        let kind: String
        switch failure {
        case .protectionPolicyRequired(let details): kind = "protectionPolicyRequired"; server = details.serverError
        case .interactionRequired(let details): kind = "interactionRequired"; server = details?.serverError
        case .capabilityMissing(let error): kind = "capabilityMissing"; server = error
        case .serviceFailure(let details): kind = "serviceFailure"; server = details.serverError
        case .networkFailure: kind = "networkFailure"
        case .userCancelled: kind = "userCancelled"
        case .requestRejected(let error): kind = "requestRejected"; server = error
        case .malformedResponse: kind = "malformedResponse"
        case .invalidClaimsChallenge: kind = "invalidClaimsChallenge"
        case .accountRemoved: kind = "accountRemoved"
        case .declinedScopes: kind = "declinedScopes"
        case .issuerConfiguration: kind = "issuerConfiguration"
        case .accountMismatch: kind = "accountMismatch"
        case .tokenCacheUnreadable: kind = "tokenCacheUnreadable"
        }
        var object: JSONObject = [
            "kind": .string(kind), "message": .string(failure.message),
            "errorCodes": .array((server?.errorCodes ?? []).map { .int($0) }),
            "suberror": server?.suberror.map { .string($0) } ?? .null,
        ]
        // The server's identifiers of this answer (Entra's support asks for them), when it sent them.
        if let correlation = server?.correlationID { object["correlationId"] = .string(correlation) }
        if let trace = server?.traceID { object["traceId"] = .string(trace) }
        if case .protectionPolicyRequired(let details) = failure {
            // MSAL's MSALDisplayableUserIdKey and MSALHomeAccountIdKey; the current SDK guide has
            // apps split the home account id at '.' and remediate the object id.
            if let adi = details.displayableID { object["displayableId"] = .string(adi) }
            if let home = details.homeAccountID {
                object["homeAccountId"] = .string(home.description)
                object["objectId"] = .string(home.objectID)
            }
            if let tenant = details.tenantID { object["tenantId"] = .string(tenant) }
            if let authority = details.authority { object["authority"] = .string(authority) }
        }
        if case .declinedScopes(let scopes) = failure {
            // MSAL's MSALGrantedScopesKey / MSALDeclinedScopesKey.
            object["grantedScopes"] = .array(scopes.granted.map { .string($0) })
            object["declinedScopes"] = .array(scopes.declined.map { .string($0) })
        }
        return object
    }
}
