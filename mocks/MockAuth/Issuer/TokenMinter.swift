import Crypto
import Foundation
import JSON

/// Builds signed tokens and the token endpoint's success response.
struct TokenMinter {
    let key: SigningKey
    let issuer: String
    let tenantId: String
    let now: Date
    let lifetime: Int

    private var times: [(String, JSONValue)] {
        let issued = Int64(now.timeIntervalSince1970)
        return [("iat", .int(issued)), ("nbf", .int(issued)), ("exp", .int(issued + Int64(lifetime)))]
    }

    /// A pairwise-looking but stable `sub` for (user, app).
    static func subject(objectId: String, clientId: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array((objectId + "|" + clientId).utf8)))
    }

    /// A delegated access token for `user`.
    /// `azpacr` is `1` when the client authenticated with a secret (`clientAuthenticated`), else `0`.
    func accessToken(
        user: Fixtures.User, clientId: String, scopes: ScopeRequest, capabilities: [String], azpacr: String = "0"
    ) throws -> String {
        var claims = JSONObject([("aud", .string(scopes.audience ?? scopes.resource ?? clientId)), ("iss", .string(issuer))])
        for (name, value) in times { claims[name] = value }
        claims["azp"] = .string(clientId)
        claims["azpacr"] = .string(azpacr)
        claims["name"] = .string(user.displayName)
        claims["oid"] = .string(user.objectId)
        claims["preferred_username"] = .string(user.upn)
        let scp = scopes.resource == nil ? scopes.oidcScopes.sorted() : scopes.grantedScopes
        claims["scp"] = .string(scp.joined(separator: " "))
        claims["sub"] = .string(Self.subject(objectId: user.objectId, clientId: clientId))
        claims["tid"] = .string(tenantId)
        // v2.0 access tokens carry `upn` only as an optional claim the API asked for; personal
        // Microsoft accounts have none.
        if scopes.optionalClaims.contains("upn"), !user.isMicrosoftAccount { claims["upn"] = .string(user.upn) }
        claims["uti"] = .string(Base64URL.randomToken(bytes: 16))
        claims["ver"] = "2.0"
        if !capabilities.isEmpty { claims["xms_cc"] = .array(capabilities.map { .string($0) }) }
        return try JWT.sign(.object(claims), with: key)
    }

    /// An app-only access token for a confidential client.
    func appAccessToken(client: Fixtures.ClientApp, scopes: ScopeRequest, azpacr: String = "1") throws -> String {
        var claims = JSONObject([("aud", .string(scopes.audience ?? scopes.resource ?? client.clientId)), ("iss", .string(issuer))])
        for (name, value) in times { claims[name] = value }
        claims["azp"] = .string(client.clientId)
        claims["azpacr"] = .string(azpacr)
        claims["idtyp"] = "app"
        claims["oid"] = .string(client.objectId)
        // No app role is ever assigned in the mock: Entra leaves `roles` out then.
        claims["sub"] = .string(client.objectId)
        claims["tid"] = .string(tenantId)
        claims["uti"] = .string(Base64URL.randomToken(bytes: 16))
        claims["ver"] = "2.0"
        return try JWT.sign(.object(claims), with: key)
    }

    /// An OpenID Connect id_token; carries the authorize request's `nonce` when there was one.
    /// `auth_time` when given (the request sent `max_age`).
    func idToken(user: Fixtures.User, clientId: String, nonce: String?, authTime: Date? = nil) throws -> String {
        var claims = JSONObject([("aud", .string(clientId)), ("iss", .string(issuer))])
        for (name, value) in times { claims[name] = value }
        if let authTime { claims["auth_time"] = .int(Int64(authTime.timeIntervalSince1970)) }
        claims["name"] = .string(user.displayName)
        if let nonce { claims["nonce"] = .string(nonce) }
        claims["oid"] = .string(user.objectId)
        claims["preferred_username"] = .string(user.upn)
        claims["sub"] = .string(Self.subject(objectId: user.objectId, clientId: clientId))
        claims["tid"] = .string(tenantId)
        claims["ver"] = "2.0"
        return try JWT.sign(.object(claims), with: key)
    }

    /// `client_info`: base64url of `{"uid":oid,"utid":tid}`.
    func clientInfo(user: Fixtures.User) -> String {
        let value: JSONValue = ["uid": .string(user.objectId), "utid": .string(tenantId)]
        return Base64URL.encode(value.encoded())
    }

    /// The success body of a user token request.
    func userTokenResponse(
        user: Fixtures.User, clientId: String, scopes: ScopeRequest, capabilities: [String],
        nonce: String?, refreshToken: String?, wantsClientInfo: Bool, azpacr: String = "0", authTime: Date? = nil
    ) throws -> JSONValue {
        var body = JSONObject([
            ("token_type", "Bearer"),
            ("scope", .string(scopes.responseScope)),
            ("expires_in", .int(Int64(lifetime))),
            ("ext_expires_in", .int(Int64(lifetime))),
            ("access_token", .string(try accessToken(
                user: user, clientId: clientId, scopes: scopes, capabilities: capabilities, azpacr: azpacr))),
        ])
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        if scopes.oidcScopes.contains("openid") {
            body["id_token"] = .string(try idToken(user: user, clientId: clientId, nonce: nonce, authTime: authTime))
        }
        if wantsClientInfo { body["client_info"] = .string(clientInfo(user: user)) }
        return .object(body)
    }
}
