import Foundation
import Hummingbird
import JSON

/// The admin API under `/_admin/`: changes assignments and faults at run time.
struct AdminRoutes: Sendable {
    /// The first path segment of every admin route.
    static let pathRoot = "_admin"

    /// True when `path`'s first segment is exactly ``pathRoot`` (`/_admin`, `/_admin/...`;
    /// not `/_adminx/...`): the admin API's own requests, kept out of the request log.
    /// Allocates nothing: the fast lane's log line passes here for every token answer.
    static func isAdmin(path: String) -> Bool {
        let rest = path.drop { $0 == "/" }
        guard rest.hasPrefix(pathRoot) else { return false }
        return rest.dropFirst(pathRoot.count).first.map { $0 == "/" } ?? true
    }

    let state: MockState
    /// Whether a `Host` names this server (``Issuer/namesThisServer(_:)``).
    var namesThisServer: @Sendable (String) -> Bool = { _ in true }

    func addRoutes(to router: Router<MockRequestContext>) {
        let admin = router.group(RouterPath(Self.pathRoot)).add(middleware: AdminCrossSiteGuard(namesThisServer: namesThisServer))
        admin.get("state") { _, _ in Response.json(self.snapshot()) }
        // The same state for a person: read-only HTML (AdminUIPage.swift).
        admin.get("ui") { _, _ in Response.html(AdminUIPage.render(state: self.state)) }
        admin.post("reset") { _, _ in
            self.state.reset()
            return Response.json(self.snapshot())
        }
        admin.post("users/generate") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            guard let count = body["count"]?.intValue else { throw AdminError.badRequest("'count' (an integer) is required.") }
            let prefix = try Self.optionalString(body, "prefix") ?? "load"
            do {
                let total = try self.state.addGeneratedUsers(count: Int(clamping: count), prefix: prefix)
                let first: JSONValue = count > 0 ? .string(self.state.directory.generatedUPN(1, prefix: prefix)) : .null
                return Response.json(["users": .int(Int64(total)), "first": first])
            } catch let error as FixtureError {
                throw AdminError.badRequest(error.message)
            }
        }
        admin.post("users/:upn/ca") { request, context in
            let targeted = try await Self.flag(request, "targeted")
            return try await self.updateUser(context) { $0.caTargeted = targeted }
        }
        admin.post("users/:upn/mam-policy") { request, context in
            let assigned = try await Self.flag(request, "assigned")
            return try await self.updateUser(context) { $0.mamPolicyAssigned = assigned }
        }
        admin.post("users/:upn/wipe") { request, context in
            let account = try await self.account(request, context)
            self.state.queueWipe(account)
            return Response.json(["queued": true, "upn": .string(account.upn), "appId": .string(account.appId)])
        }
        admin.post("users/:upn/compliance/reset") { request, context in
            let account = try await self.account(request, context)
            let was = self.state.resetCompliance(account)
            return Response.json(["upn": .string(account.upn), "appId": .string(account.appId), "wasCompliant": .bool(was)])
        }
        admin.post("users/:upn/revoke-refresh-tokens") { _, context in
            let upn = try context.pathParameter("upn")
            guard self.state.directory.user(upn: upn) != nil else { throw AdminError.notFound("no user '\(upn)'.") }
            return Response.json(["revoked": .int(Int64(self.state.revokeRefreshTokens(upn: upn)))])
        }
        admin.put("policy/allowed-accounts") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            guard let value = body["allowedAccounts"] else { throw AdminError.badRequest("'allowedAccounts' is required (an array of UPNs, or null).") }
            let accounts: [String]?
            if value.isNull {
                accounts = nil
            } else if let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) {
                accounts = items.compactMap(\.stringValue)
            } else {
                throw AdminError.badRequest("'allowedAccounts' must be an array of strings or null.")
            }
            return Response.json(self.state.setAllowedAccounts(accounts).json)
        }
        admin.patch("policy") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            guard !body.isEmpty else { throw AdminError.badRequest("send at least one policy setting to change.") }
            for (name, value) in body {
                // JSON merge patch (RFC 7396): null removes a known setting.
                if value == .null, MAMPolicy.settingKinds.contains(where: { $0.name == name }) { continue }
                if let problem = MAMPolicy.problem(setting: name, value: value) { throw AdminError.badRequest(problem) }
            }
            return Response.json(self.state.updatePolicySettings(body).json)
        }
        admin.get("app-config") { _, _ in
            Response.json(["configs": .array(self.state.directory.mamPolicy.appConfigs.map(\.json))])
        }
        admin.put("app-config") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            guard let list = body["configs"]?.arrayValue, body.count == 1 else {
                throw AdminError.badRequest("send {\"configs\": [...]} (each {appId, users?, isDefault?, settings}); [] removes every configuration.")
            }
            var entries: [AppConfigEntry] = []
            for (index, item) in list.enumerated() { entries.append(try AppConfigEntry(json: item, path: "configs[\(index)]")) }
            return Response.json(["configs": .array(self.state.setAppConfigs(entries).map(\.json))])
        }
        admin.put("ca-error-status") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            guard let status = body["status"]?.intValue, status == 400 || status == 200 else {
                throw AdminError.badRequest("'status' must be 400 (Entra) or 200.")
            }
            self.state.setCAErrorStatus(Int(status))
            return Response.json(["status": .int(status)])
        }
        admin.post("keys/rotate") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            let retain = body["retainSeconds"].map { $0.intValue } ?? 86_400
            guard let retain, (0...31_536_000).contains(retain) else {
                throw AdminError.badRequest("'retainSeconds' must be an integer from 0 to 31536000 (how long the old key stays published).")
            }
            let (current, previous) = try self.state.keyRing.rotate(now: self.state.now(), retainSeconds: Int(retain))
            return Response.json(["kid": .string(current), "previousKid": .string(previous), "retainSeconds": .int(retain)])
        }
        admin.put("lockout") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            var policy = self.state.directory.lockout
            for (name, value) in body {
                guard let number = value.intValue else { throw AdminError.badRequest("'\(name)' must be an integer.") }
                switch name {
                case "threshold": policy.threshold = Int(clamping: number)
                case "durationSeconds": policy.durationSeconds = Int(clamping: number)
                case "deviceCodeGuesses": policy.deviceCodeGuesses = Int(clamping: number)
                default: throw AdminError.badRequest("unknown field '\(name)' (threshold, durationSeconds, deviceCodeGuesses).")
                }
            }
            if let problem = policy.problem { throw AdminError.badRequest(problem) }
            self.state.setLockout(policy)
            return Response.json([
                "threshold": .int(Int64(policy.threshold)), "durationSeconds": .int(Int64(policy.durationSeconds)),
                "deviceCodeGuesses": .int(Int64(policy.deviceCodeGuesses)),
            ])
        }
        admin.post("faults") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            return Response.json(try self.state.addFault(body).json, status: .created)
        }
        admin.get("faults") { _, _ in Response.json(.array(self.state.faultRules().map(\.json))) }
        admin.get("faults/held") { _, _ in Response.json(["held": .int(Int64(self.state.held.count))]) }
        admin.post("faults/release") { _, _ in Response.json(["released": .int(Int64(self.state.held.releaseAll()))]) }
        admin.delete("faults") { _, _ in
            self.state.clearFaults()
            return Response.json(["cleared": true])
        }
        admin.get("requests") { _, _ in Response.json(.array(self.state.requestLogEntries().map(\.json))) }
        admin.delete("requests") { _, _ in
            self.state.clearRequestLog()
            return Response.json(["cleared": true])
        }
        admin.post("clock/advance") { request, _ in
            var request = request
            let body = try await Self.object(&request)
            guard let seconds = body["seconds"]?.doubleValue, seconds >= 0, seconds <= 10 * 365 * 86_400 else {
                throw AdminError.badRequest("'seconds' must be a number from 0 to 315360000 (10 years).")
            }
            self.state.advanceClock(seconds: seconds)
            return Response.json(["clockOffsetSeconds": .double(self.state.clockOffset)])
        }
        admin.post("device-codes/:userCode/approve") { request, context in
            var request = request
            let body = try await Self.object(&request)
            let code = try context.pathParameter("userCode")
            let deny = body["deny"]?.boolValue ?? false
            let upn = body["upn"]?.stringValue
            guard deny || upn.map({ _ in true }) == true else { throw AdminError.badRequest("'upn' is required unless 'deny' is true.") }
            let directory = self.state.directory
            if let upn, directory.user(upn: upn) == nil { throw AdminError.notFound("no user '\(upn)'.") }
            guard self.state.completeDeviceCode(userCode: code, upn: upn, deny: deny) else {
                throw AdminError.notFound("no pending device code '\(code)'.")
            }
            return Response.json(["approved": .bool(!deny), "userCode": .string(code)])
        }
    }

    private func updateUser(_ context: MockRequestContext, _ change: @Sendable (inout Fixtures.User) -> Void) async throws -> Response {
        let upn = try context.pathParameter("upn")
        guard let user = state.updateUser(upn: upn, change) else { throw AdminError.notFound("no user '\(upn)'.") }
        return .json(userJSON(user))
    }

    private func account(_ request: Request, _ context: MockRequestContext) async throws -> AccountApp {
        var request = request
        let body = try await Self.object(&request)
        let upn = try context.pathParameter("upn")
        guard state.directory.user(upn: upn) != nil else { throw AdminError.notFound("no user '\(upn)'.") }
        let directory = state.directory
        let appId = try Self.optionalString(body, "appId") ?? directory.mamPolicy.appIds.first ?? "chatr"
        return AccountApp(upn: upn, appId: appId)
    }

    static func object(_ request: inout Request) async throws -> JSONObject {
        do {
            return try await request.jsonObjectBody()
        } catch let error as MAMError {
            throw AdminError.badRequest(error.message)
        }
    }

    /// The string `body[name]`, nil when absent or `null`; any other kind is a 400 naming the field.
    static func optionalString(_ body: JSONObject, _ name: String) throws(AdminError) -> String? {
        guard let value = body[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw AdminError.badRequest("'\(name)' must be a string.") }
        return text
    }

    static func flag(_ request: Request, _ name: String) async throws -> Bool {
        var request = request
        guard let flag = try await object(&request)[name]?.boolValue else {
            throw AdminError.badRequest("'\(name)' (a boolean) is required.")
        }
        return flag
    }
}
