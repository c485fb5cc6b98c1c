import Hummingbird
import JSON
import Orchestrator

/// `/v1/settings`: the app's Entra settings in force, and the runtime overrides
/// (`IntuneMAMSettings` `aadAuthorityUriOverride`, `aadClientIdOverride`, `aadRedirectUriOverride`).
struct SettingsRoutes: Sendable {
    let engine: Engine

    static let overrideNames = ["aadAuthorityUriOverride", "aadClientIdOverride", "aadRedirectUriOverride"]

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.get("/v1/settings", use: settings)
        router.put("/v1/settings/overrides", use: setOverrides)
    }

    /// `GET /v1/settings`: ``Engine/settingsView()``.
    @Sendable func settings(_ request: Request, context: ControlRequestContext) async throws -> Response {
        .json(.object(ControlJSON.settings(await engine.settingsView())))
    }

    /// `PUT /v1/settings/overrides` `{"aadAuthorityUriOverride"?, "aadClientIdOverride"?,
    /// "aadRedirectUriOverride"?}`: a string sets one, null clears it, an absent one stays.
    @Sendable func setOverrides(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "PUT /v1/settings/overrides"
        let body = try await request.controlBody(route: route, known: Set(Self.overrideNames))
        func change(_ name: String) throws(ControlError) -> Engine.OverrideChange {
            switch body.object[name] {
            case nil: return .keep
            case .null?: return .clear
            case .string(let value)?: return .set(value)
            case let other?: throw ControlError.badRequest("\(route): field '\(name)' must be a string (set) or null (clear), got \(other.kindName)")
            }
        }
        let authority = try change("aadAuthorityUriOverride")
        let clientID = try change("aadClientIdOverride")
        let redirectURI = try change("aadRedirectUriOverride")
        return .json(.object(ControlJSON.settings(try await engine.updateSettingsOverrides(authority: authority, clientID: clientID, redirectURI: redirectURI))))
    }
}
