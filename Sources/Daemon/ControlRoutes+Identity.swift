import ComplianceCore
import Hummingbird
import JSON
import Orchestrator

/// `/v1/identity`: the app's process and UI identities (IntuneMAMPolicyManager). An identity
/// is a UPN, or "" for no user.
extension ControlRoutes {
    /// `GET /v1/identity`: ``Engine/identityView()``.
    func identity() async throws -> Response {
        .json(.object(await engine.identityView()))
    }

    /// `POST /v1/identity/ui` `{"identity": upn or "", "conditionalLaunch": "complete" | "cancel"}`
    /// → 200 `{"identity", "result": "Success" | "Canceled" | "NotAllowed" | "Failed",
    /// "conditionalLaunch": "none" | "pin", "detail"?, "effectiveUIIdentity"}`. A result other
    /// than Success is an answer, not an error.
    func switchUIIdentity(_ request: Request) async throws -> Response {
        let route = "POST /v1/identity/ui"
        let body = try await jsonBody(request, route: route, known: ["identity", "conditionalLaunch"])
        let identity = try body.string("identity")
        let userCancels = try body.choice("conditionalLaunch", ["complete", "cancel"], default: "complete") == "cancel"
        let outcome = try await engineCall { try await engine.setUIPolicyIdentity(identity, userCancels: userCancels) }
        var object = EngineJSON.identitySwitch(outcome)
        object["effectiveUIIdentity"] = await engine.identityView()["effectiveUIIdentity"]
        return .json(.object(object))
    }

    /// `PUT /v1/identity/process` `{"identity": upn or ""}` → 200 with the identities
    /// (`GET /v1/identity`); 403 `identity_not_allowed` or `policy_required`.
    func setProcessIdentity(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "PUT /v1/identity/process", known: ["identity"])
        let identity = try body.string("identity")
        try await engineCall { try await engine.setProcessIdentity(identity) }
        return .json(.object(await engine.identityView()))
    }
}
