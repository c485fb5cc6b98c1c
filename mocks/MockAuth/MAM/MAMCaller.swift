import Hummingbird
import JSON

/// The user and app a MAM request acts for, from its verified bearer token.
struct MAMCaller: Sendable {
    var upn: String
    var appId: String
    var tenantId: String

    static let resource = "https://msmamservice.api.application"

    /// The (user, app) the token acts for: an enrollment answers only its own app's tokens,
    /// as one app's token enrolls only that app.
    var account: AccountApp { AccountApp(upn: upn, appId: appId) }

    /// Verifies `Authorization: Bearer …`: our signature, audience the MAM resource, not expired,
    /// a user (delegated) token of this tenant.
    /// The user is noted in the request log (`note`) once the token names one, also when
    /// continuous access evaluation then refuses it.
    static func authenticate(_ request: Request, issuer: Issuer, note: RequestNotes? = nil) async throws(MAMError) -> MAMCaller {
        guard let header = request.headers[.authorization] else {
            throw .unauthorized("The request has no Authorization header; send a bearer token for \(resource).")
        }
        guard header.lowercased().hasPrefix("bearer "), header.count > 7 else {
            throw .unauthorized("The Authorization header is not a bearer token.")
        }
        let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        let claims: JSONValue
        do {
            claims = try JWT.verify(token, keys: issuer.state.keyRing, audience: resource, now: issuer.state.now())
        } catch {
            throw .unauthorized("The bearer token was refused: \(error.description).")
        }
        let directory = issuer.state.directory
        // The caller is known by `oid`: v2.0 tokens of personal accounts (and, at Entra, most
        // v2.0 tokens) carry no `upn`.
        guard let oid = claims["oid"]?.stringValue, claims["scp"] != nil, let appId = claims["azp"]?.stringValue else {
            throw .unauthorized("The bearer token is not a user token (no oid or scp).")
        }
        guard let user = directory.user(objectId: oid) else {
            throw .unauthorized("The bearer token's user (oid) is not in this directory.")
        }
        let tenantId = directory.tenantId(of: user)
        guard claims["tid"]?.stringValue == tenantId else {
            throw .unauthorized("The bearer token was issued for another tenant.")
        }
        note?.record(user: user.upn.lowercased())
        if let challenge = ContinuousAccess.challenge(for: claims, user: user, state: issuer.state) {
            throw .insufficientClaims(challenge)
        }
        return MAMCaller(upn: user.upn.lowercased(), appId: appId, tenantId: tenantId)
    }
}

extension Request {
    /// The body as a JSON object; an empty body is `{}`.
    mutating func jsonObjectBody() async throws -> JSONObject {
        let bytes = try await boundedBody()
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return JSONObject() }
        do {
            let value = try JSONValue.parse(bytes)
            guard let object = value.objectValue else {
                throw MAMError.badRequest("The request body must be a JSON object, not a \(value.kindName).")
            }
            return object
        } catch let error as JSONParseError {
            throw MAMError.badRequest("The request body is not valid JSON: \(error.description)")
        }
    }
}
