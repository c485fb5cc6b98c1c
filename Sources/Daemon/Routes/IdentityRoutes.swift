import ComplianceCore
import Hummingbird
import JSON
import Orchestrator

/// `/v1/identity`: the app's process and UI identities (IntuneMAMPolicyManager). An identity
/// is a UPN, or "" for no user.
struct IdentityRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.get("/v1/identity", use: identity)
        router.post("/v1/identity/ui", use: switchUIIdentity)
        router.put("/v1/identity/process", use: setProcessIdentity)
        router.post("/v1/identity/sdk-enrolled", use: sdkEnrolled)
    }

    /// `GET /v1/identity`: ``Engine/identityView()``.
    @Sendable func identity(_ request: Request, context: ControlRequestContext) async throws -> Response {
        .json(.object(ControlJSON.identity(await engine.identityView())))
    }

    /// `POST /v1/identity/ui` `{"identity": upn or "", "conditionalLaunch": "complete" | "cancel"}`
    /// → 200 `{"identity", "result": "Success" | "Canceled" | "NotAllowed" | "Failed",
    /// "conditionalLaunch": "none" | "pin", "detail"?, "effectiveUIIdentity"}`. A result other
    /// than Success is an answer, not an error.
    @Sendable func switchUIIdentity(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/identity/ui", known: ["identity", "conditionalLaunch"])
        let identity = try body.string("identity")
        let userCancels = try body.choice("conditionalLaunch", ["complete", "cancel"], default: "complete") == "cancel"
        let outcome = try await engine.setUIPolicyIdentity(identity, userCancels: userCancels)
        var object = EngineJSON.identitySwitch(outcome)
        object["effectiveUIIdentity"] = .string(await engine.identityView().effectiveUI?.key ?? "")
        return .json(.object(object))
    }

    /// `PUT /v1/identity/process` `{"identity": upn or ""}` → 200 with the identities
    /// (`GET /v1/identity`); 403 `identity_not_allowed` or `policy_required`.
    @Sendable func setProcessIdentity(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "PUT /v1/identity/process", known: ["identity"])
        try await engine.setProcessIdentity(try body.string("identity"))
        return .json(.object(ControlJSON.identity(await engine.identityView())))
    }

    /// `POST /v1/identity/sdk-enrolled` `{"account": upn}`: the SDK enrolled the account on its
    /// own and asks the app to add it (`addIdentity:completionHandler:`, the app's identity
    /// hook) → 200 `{"account", "registered"}` (false: the app answered Failed); 403
    /// `identity_not_allowed`.
    @Sendable func sdkEnrolled(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/identity/sdk-enrolled", known: ["account"])
        let (account, registered) = try await engine.sdkEnrolled(try body.string("account"))
        return .json(["account": .string(account.key), "registered": .bool(registered)])
    }
}
