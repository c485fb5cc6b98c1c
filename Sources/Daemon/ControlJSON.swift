import ComplianceCore
import JSON
import Orchestrator

/// The control API's answer shapes (Sources/complianced/README.md).
enum ControlJSON {
    /// The policy object's answers (``DataProtectionAnswer``), each location by the guide's name.
    static func dataProtection(_ answer: DataProtectionAnswer) -> JSONObject {
        var object: JSONObject = [
            "identity": answer.identity.map { .string($0.key) } ?? .null, "managed": .bool(answer.managed),
            "owner": answer.owner.map { .string($0.key) } ?? .null,
        ]
        object["saveTo"] = .object(JSONObject(answer.saveTo.map { ($0.0.rawValue, .bool($0.1)) }))
        object["openFrom"] = .object(JSONObject(answer.openFrom.map { ($0.0.rawValue, .bool($0.1)) }))
        object["isFileEncryptionRequired"] = .bool(answer.isFileEncryptionRequired)
        object["notificationPolicy"] = .string(answer.notificationPolicy.rawValue)
        object["isAppSharingAllowed"] = .bool(answer.isAppSharingAllowed)
        object["canReceiveSharedItem"] = .bool(answer.canReceiveSharedItem)
        if let allowed = answer.isURLAllowed { object["isURLAllowed"] = .bool(allowed) }
        return object
    }

    /// `{"registeredAccounts": [upn…], "allowedAccounts": [upn…] | null, "managedAccount": upn | null,
    /// "policyVersion": string | null, "restartOwed": upn | null}`.
    static func app(_ view: AppView) -> JSONObject {
        [
            "registeredAccounts": .array(view.registeredAccounts.map { .string($0.key) }), "allowedAccounts": view.allowedAccounts.json,
            "managedAccount": view.managedAccount.map { .string($0.key) } ?? .null, "policyVersion": view.policyVersion.map { .string($0) } ?? .null,
            "restartOwed": view.restartOwed.map { .string($0.key) } ?? .null,
        ]
    }

    /// `{"account", "managed", "fullData", "keys", "value"?}` with `value` = `{key, query,
    /// hasConflict, allStrings, string, number, bool}`.
    static func appConfig(_ answer: AppConfigAnswer) -> JSONObject {
        var object: JSONObject = [
            "account": .string(answer.account.key), "managed": .bool(answer.managed),
            "fullData": .array(answer.config.fullData.map { .object($0) }), "keys": .array(answer.config.keys.map { .string($0) }),
        ]
        if let value = answer.value {
            object["value"] = [
                "key": .string(value.key), "query": .string(value.query), "hasConflict": .bool(value.hasConflict),
                "allStrings": .array(value.allStrings.map { .string($0) }), "string": value.string.map { .string($0) } ?? .null,
                "number": value.number.map { .double($0) } ?? .null, "bool": value.bool.map { .bool($0) } ?? .null,
            ]
        }
        return object
    }

    /// `{"multiIdentity", "processIdentity", "uiIdentity", "effectiveUIIdentity"}`: a setting is
    /// a UPN, "" (no user) or null (unset); the effective identity is a UPN or "".
    static func identity(_ view: IdentityView) -> JSONObject {
        func setting(_ value: IdentitySetting) -> JSONValue {
            switch value {
            case .unset: .null
            case .noUser: .string("")
            case .account(let account): .string(account.key)
            }
        }
        return [
            "multiIdentity": .bool(view.multiIdentity), "processIdentity": setting(view.process), "uiIdentity": setting(view.ui),
            "effectiveUIIdentity": .string(view.effectiveUI?.key ?? ""),
        ]
    }

    /// `{"authority", "clientId", "redirectUri"}` in force, `"profile"` (the Info.plist's and
    /// the daemon's), and `"overrides"` (``SettingsOverrides/json``).
    static func settings(_ view: SettingsView) -> JSONObject {
        func settings(_ value: SettingsView.Settings) -> JSONObject {
            ["authority": .string(value.authority), "clientId": .string(value.clientID), "redirectUri": .string(value.redirectURI)]
        }
        var object = settings(view.inForce)
        object["profile"] = .object(settings(view.profile))
        object["overrides"] = view.overrides.json
        return object
    }

    static func token(_ tokens: TokenSet) -> JSONValue {
        let access = tokens.accessToken.reveal()
        return [
            "scopes": .array(tokens.scopes.map { .string($0) }),
            "expiresAt": .int(tokens.expiresOn.millisecondsSinceEpoch),
            "accessToken": .string(access),
            "claims": JWTClaims.payload(of: access).map { JSONValue.object($0) } ?? .null,
        ]
    }

    static func tokenOutcome(_ outcome: TokenOutcome) -> JSONObject {
        var object: JSONObject = [
            "account": .string(outcome.account.key), "status": EngineJSON.status(outcome.status),
            "remediated": .bool(outcome.remediated),
        ]
        if let report = outcome.report { object["report"] = EngineJSON.report(report) }
        if let tokens = outcome.tokens {
            object["token"] = token(tokens)
            object["fromCache"] = .bool(outcome.fromCache)
        }
        if let failure = outcome.failure { object["failure"] = .object(EngineJSON.failure(failure)) }
        return object
    }

    static func account(_ summary: AccountSummary) -> JSONValue {
        [
            "account": .string(summary.account.key),
            "signedIn": .bool(summary.signedIn),
            "managed": .bool(summary.managed),
            "homeAccountId": summary.homeAccountID.map { .string($0) } ?? .null,
            "enrollment": [
                "state": .string(summary.enrollmentState.rawValue),
                "lastStatus": summary.lastEnrollmentStatus.map { EngineJSON.status($0) } ?? .null,
                "nextDueAt": summary.nextDueAt.map { .int($0) } ?? .null,
            ],
            "compliance": summary.compliance.map { EngineJSON.status($0) } ?? .null,
            "remediation": .string(summary.remediation),
            "wipe": .string(summary.wipe),
            "dataFiles": .int(Int64(summary.dataFiles)),
        ]
    }

    static func event(_ event: StoredEvent) -> JSONValue {
        [
            "seq": .int(event.seq), "time": .int(event.time),
            "account": event.account.map { .string($0.key) } ?? .null,
            "kind": .string(event.kind), "payload": event.payload,
        ]
    }

    static func file(_ file: Engine.DataFile) -> JSONValue {
        ["name": .string(file.name), "size": .int(Int64(file.size)), "encrypted": .bool(file.encrypted), "owner": file.owner.map { .string($0.key) } ?? .null]
    }
}
