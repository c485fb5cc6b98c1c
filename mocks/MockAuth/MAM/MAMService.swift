import Foundation
import Hummingbird
import JSON
import Logging

/// The mock MAM (app management) service under `/mam/v1/`.
///
/// Every route needs a bearer token for `https://msmamservice.api.application`.
/// Outcomes are HTTP 200 with the SDK's enrollment `status` code and name; 4xx only for
/// authentication (401) and malformed input (400, 413).
struct MAMService: Sendable {
    let issuer: Issuer
    let logger: Logger
    var state: MockState { issuer.state }

    /// The first path segment of every MAM route.
    static let pathRoot = "mam"

    func addRoutes(to router: Router<MockRequestContext>) {
        let group = router.group(RouterPath("\(Self.pathRoot)/v1"))
        group.post("enroll") { request, context in try await self.counted("enroll", request, context, self.enroll) }
        group.post("checkin") { request, context in try await self.counted("checkin", request, context, self.checkIn) }
        group.post("unenroll") { request, context in try await self.counted("unenroll", request, context, self.unenroll) }
        group.post("report-compliance") { request, context in
            try await self.counted("report-compliance", request, context, self.reportCompliance)
        }
    }

    /// ``handle(_:_:_:)``, counted in `mockauth_mam_requests_total` by route and status.
    private func counted(
        _ route: String, _ request: Request, _ context: MockRequestContext,
        _ operation: (MAMCaller, JSONObject, Fixtures) async throws -> JSONValue
    ) async throws -> Response {
        do {
            let (response, status) = try await handle(request, context, operation)
            state.metrics.mamRequest(route: route, httpStatus: Int(response.status.code), mamStatus: status)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            state.metrics.mamRequest(route: route, httpStatus: status, mamStatus: nil)
            throw error
        }
    }

    private func handle(
        _ request: Request, _ context: MockRequestContext,
        _ operation: (MAMCaller, JSONObject, Fixtures) async throws -> JSONValue
    ) async throws -> (Response, Int64?) {
        var request = request
        let caller = try await MAMCaller.authenticate(request, issuer: issuer, note: context.note)
        let body = try await request.jsonObjectBody()
        let result = try await operation(caller, body, state.directory)
        logger.debug("mam request", metadata: ["user.upn": "\(caller.upn)", "mam.status": "\(result["status"] ?? .null)"])
        return (.json(result), result["status"]?.intValue)
    }

    /// The response body: status, its name, then details.
    static func reply(_ status: EnrollmentStatus, _ details: [(String, JSONValue)] = []) -> JSONValue {
        .object(JSONObject([("status", .int(Int64(status.code))), ("statusName", .string(status.name))] + details))
    }

    /// `213 AppNotEnrolled` for enrollment `id`: unknown, another user's or another app's (a token
    /// acts for its own app only), or removed meanwhile.
    static func notEnrolled(_ id: String) -> JSONValue {
        reply(.appNotEnrolled, [("enrollmentId", .string(id))])
    }

    /// The caller's (user, app). One app's token acts for that app only: an `appId` naming
    /// another app than the token's client (`azp`) is refused (403).
    private func account(_ caller: MAMCaller, _ body: JSONObject) throws -> AccountApp {
        if let value = body["appId"], value.stringValue == nil { throw MAMError.badRequest("'appId' must be a string.") }
        if let appId = body["appId"]?.stringValue, appId != caller.appId {
            throw MAMError.forbidden(
                "The token was issued to app '\(caller.appId)'; it cannot act for app '\(appId)'. Acquire a token as that app.")
        }
        return AccountApp(upn: caller.upn, appId: caller.appId)
    }

    private func enrollmentId(_ body: JSONObject) throws -> String {
        guard let id = body["enrollmentId"]?.stringValue, !id.isEmpty else {
            throw MAMError.badRequest("The request body must contain 'enrollmentId' (a string).")
        }
        return id
    }

    /// Whether the policy applies to this user and app.
    private func targeted(_ account: AccountApp, _ directory: Fixtures) -> Bool {
        guard let user = directory.user(upn: account.upn) else { return false }
        return user.mamPolicyAssigned && directory.mamPolicy.appIds.contains(account.appId)
    }

    /// The policy, with the user's MAM app configuration in it (`appConfig`, the SDK's `fullData`).
    private func policyDetails(_ account: AccountApp, _ directory: Fixtures) -> [(String, JSONValue)] {
        var policy = directory.mamPolicy.json.objectValue ?? JSONObject()
        policy["appConfig"] = directory.mamPolicy.appConfig(upn: account.upn, appId: account.appId)
        return [("accountAllowed", .bool(directory.mamPolicy.allows(upn: account.upn))), ("policy", .object(policy))]
    }

    /// `POST /mam/v1/enroll` `{"appId"?}` → 100, 208, 200 or 225.
    func enroll(_ caller: MAMCaller, _ body: JSONObject, _ directory: Fixtures) throws -> JSONValue {
        let account = try account(caller, body)
        guard let user = directory.user(upn: account.upn) else { throw MAMError.unauthorized("The token's user no longer exists.") }
        let who: [(String, JSONValue)] = [("upn", .string(account.upn)), ("appId", .string(account.appId))]
        guard user.licensed else { return Self.reply(.accountNotLicensed, who) }
        guard targeted(account, directory) else { return Self.reply(.licensedNotTargeted, who + [("policy", .null)]) }
        let (enrollment, isNew) = state.enrollOrExisting(account, policyVersion: directory.mamPolicy.version)
        return Self.reply(
            isNew ? .newPoliciesReceived : .alreadyEnrolled,
            [("enrollmentId", .string(enrollment.id))] + who + policyDetails(account, directory))
    }

    /// `POST /mam/v1/checkin` `{"enrollmentId", "policyVersion"?}` → 102 (wipe, dequeued), 103, 101 or 100.
    func checkIn(_ caller: MAMCaller, _ body: JSONObject, _ directory: Fixtures) throws -> JSONValue {
        let id = try enrollmentId(body)
        let givenVersion = try Self.policyVersion(body)  // checked before the enrollment is looked up
        let base: [(String, JSONValue)] = [("enrollmentId", .string(id))]
        let enrollment: Enrollment
        switch state.checkInLookup(id: id, account: caller.account) {
        case .notEnrolled:
            return Self.notEnrolled(id)
        case .wipe(let wiped):
            logger.info("wipe delivered", metadata: ["user.upn": "\(caller.upn)", "app.id": "\(wiped.account.appId)"])
            return Self.reply(.wipeReceived, base + [("wipe", ["reason": "adminRequested", "scope": "selective"])])
        case .enrolled(let found):
            enrollment = found
        }
        guard targeted(enrollment.account, directory) else { return Self.reply(.noPolicyReceived, base + [("policy", .null)]) }
        let known = givenVersion ?? enrollment.deliveredPolicyVersion
        let policy = directory.mamPolicy
        if known == policy.version {
            return Self.reply(.policiesHaveNotChanged, base + [
                ("policyVersion", .int(Int64(policy.version))), ("etag", .string(policy.etag)),
            ])
        }
        state.recordDelivered(policyVersion: policy.version, enrollmentId: id)
        return Self.reply(.newPoliciesReceived, base + policyDetails(enrollment.account, directory))
    }

    /// `POST /mam/v1/unenroll` `{"enrollmentId"}` → 104 or 213.
    func unenroll(_ caller: MAMCaller, _ body: JSONObject, _ directory: Fixtures) throws -> JSONValue {
        let id = try enrollmentId(body)
        guard let enrollment = state.enrollment(id: id), enrollment.account == caller.account else {
            return Self.notEnrolled(id)
        }
        state.removeEnrollment(id: id)
        return Self.reply(.unenrollmentSuccess, [("enrollmentId", .string(id))])
    }

    /// The `policyVersion` given, if any: a whole number (a version the service delivered).
    static func policyVersion(_ body: JSONObject) throws -> Int? {
        guard let value = body["policyVersion"] else { return nil }
        guard let version = value.intValue else {
            throw MAMError.badRequest("'policyVersion' must be a whole number, found \(value).")
        }
        return Int(version)
    }

    /// `POST /mam/v1/report-compliance` `{"enrollmentId", "policyVersion"?, "compliant"?}`:
    /// marks (user, app) compliant so the next token request passes CA.
    func reportCompliance(_ caller: MAMCaller, _ body: JSONObject, _ directory: Fixtures) throws -> JSONValue {
        let id = try enrollmentId(body)
        // The body is checked before the enrollment is looked up, as at check-in.
        if let value = body["compliant"], value.boolValue == nil { throw MAMError.badRequest("'compliant' must be a boolean.") }
        let givenVersion = try Self.policyVersion(body)
        guard let enrollment = state.enrollment(id: id), enrollment.account == caller.account else {
            return Self.notEnrolled(id)
        }
        let policy = directory.mamPolicy
        let refusal: String?
        if !targeted(enrollment.account, directory) {
            refusal = "noPolicy"
        } else if !policy.allows(upn: caller.upn) {
            refusal = "accountNotAllowed"
        } else if let givenVersion, givenVersion != policy.version {
            refusal = "policyOutdated"
        } else if body["compliant"]?.boolValue == false {
            refusal = "reportedNotCompliant"
        } else {
            refusal = nil
        }
        var details: [(String, JSONValue)] = [("enrollmentId", .string(id)), ("policyVersion", .int(Int64(policy.version)))]
        let status: ComplianceStatus
        if let refusal {
            state.resetCompliance(enrollment.account)
            status = .notCompliant
            details.append(("reason", .string(refusal)))
        } else {
            // Removed (wiped, unenrolled) since it was looked up: the report has nothing to mark.
            guard state.markCompliant(enrollmentId: id) else { return Self.notEnrolled(id) }
            status = .compliant
        }
        return .object(JSONObject([
            ("complianceStatus", .int(Int64(status.code))), ("complianceStatusName", .string(status.name)),
        ] + details))
    }
}
