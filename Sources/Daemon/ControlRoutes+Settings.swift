import Hummingbird
import JSON
import Orchestrator

/// `/v1/settings`: the app's Entra settings in force, and the runtime overrides
/// (`IntuneMAMSettings` `aadAuthorityUriOverride`, `aadClientIdOverride`, `aadRedirectUriOverride`).
extension ControlRoutes {
    static let overrideNames = ["aadAuthorityUriOverride", "aadClientIdOverride", "aadRedirectUriOverride"]

    /// `GET /v1/settings`: ``Engine/settingsView()``.
    func settings() async throws -> Response {
        .json(.object(await engine.settingsView()))
    }

    /// `PUT /v1/settings/overrides` `{"aadAuthorityUriOverride"?, "aadClientIdOverride"?,
    /// "aadRedirectUriOverride"?}`: a string sets one, null clears it, an absent one stays.
    func setSettingsOverrides(_ request: Request) async throws -> Response {
        let route = "PUT /v1/settings/overrides"
        let body = try await jsonBody(request, route: route, known: Set(Self.overrideNames))
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
        let view = try await engineCall { try await engine.updateSettingsOverrides(authority: authority, clientID: clientID, redirectURI: redirectURI) }
        return .json(.object(view))
    }
}
