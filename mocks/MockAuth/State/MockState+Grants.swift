import Foundation

extension MockState {
    /// Why a code, refresh token or device code could not be redeemed.
    enum RedemptionFailure: Error, Sendable {
        case unknown
        case expired
        case alreadyRedeemed
        case wrongClient
        case authorizationPending
        case denied
        case revoked
        /// A device code polled sooner than its interval after the previous poll.
        case slowDown
        /// A single-page app's refresh token past its fixed 24 hours.
        case spaExpired
    }

    /// Stores a new authorization code and returns it.
    func issueAuthorizationCode(_ grant: AuthorizationCodeGrant) -> String {
        let code = "mock-code." + Base64URL.randomToken()
        locked { $0.authorizationCodes[code] = grant }
        return code
    }

    /// Redeems a code once; a second redemption, or one after expiry, fails.
    func redeemAuthorizationCode(_ code: String, clientId: String) -> Result<AuthorizationCodeGrant, RedemptionFailure> {
        locked { state in
            guard var grant = state.authorizationCodes[code] else { return .failure(.unknown) }
            guard grant.clientId == clientId else { return .failure(.wrongClient) }
            guard !grant.redeemed else { return .failure(.alreadyRedeemed) }
            grant.redeemed = true
            state.authorizationCodes[code] = grant
            if grant.revoked { return .failure(.revoked) }
            guard grant.expiresAt > state.now() else { return .failure(.expired) }
            return .success(grant)
        }
    }

    /// Stores a new refresh token for (user, client). An SPA's (`spa`: issued cross-origin)
    /// lives 24 hours at most, as Entra's do, whatever the fixture's lifetime; one redeemed
    /// for it by a refresh keeps the first one's end (`spaEnd`): "additional refresh tokens
    /// acquired using the initial refresh token carry over that expiration time".
    func issueRefreshToken(upn: String, clientId: String, scopes: ScopeRequest, spa: Bool = false, spaEnd: Date? = nil) -> String {
        let token = "mock-rt." + Base64URL.randomToken(bytes: 48)
        locked { state in
            let lifetime = state.directory.lifetimes.refreshToken
            var expiresAt = state.now().addingTimeInterval(TimeInterval(spa ? min(lifetime, Self.spaRefreshTokenSeconds) : lifetime))
            if spa, let spaEnd { expiresAt = min(expiresAt, spaEnd) }
            state.refreshTokens[token] = RefreshTokenGrant(
                clientId: clientId, upn: upn.lowercased(), scopes: scopes, expiresAt: expiresAt, isSPA: spa)
        }
        return token
    }

    /// The fixed lifetime of a single-page app's refresh token (24 hours).
    static let spaRefreshTokenSeconds = 86_400

    /// Looks a refresh token up; like Entra's, it stays valid after use until it expires.
    func refreshTokenGrant(_ token: String, clientId: String) -> Result<RefreshTokenGrant, RedemptionFailure> {
        locked { state in
            guard let grant = state.refreshTokens[token] else { return .failure(.unknown) }
            guard grant.clientId == clientId else { return .failure(.wrongClient) }
            guard !grant.revoked else { return .failure(.revoked) }
            guard grant.expiresAt > state.now() else { return .failure(grant.isSPA ? .spaExpired : .expired) }
            return .success(grant)
        }
    }

    /// Revokes every refresh token of a user, as an admin "revoke sessions" does; returns how many.
    ///
    /// Revocation means revocation (issue 41 point 4): it also ends the user's browser
    /// sessions (no silent sign-in from a cookie) and invalidates the authorization codes
    /// issued to the user before it (AADSTS50173 when redeemed). The clock moves on to the
    /// next whole second, so that tokens issued after it have a later `iat`.
    public func revokeRefreshTokens(upn: String) -> Int {
        let upn = upn.lowercased()
        return locked { state in
            let keys = state.refreshTokens.filter { $0.value.upn == upn && !$0.value.revoked }.map(\.key)
            for key in keys { state.refreshTokens[key]?.revoked = true }
            state.sessions = state.sessions.filter { $0.value.upn != upn }
            let revokedAt = state.now()
            state.sessionsRevokedAt[upn] = revokedAt
            // Tokens carry `iat` in whole seconds, and continuous access evaluation refuses a
            // token of the revocation's second (it may be older than the revocation). So that a
            // token issued after the revocation is never of that second, the clock moves on to
            // the next whole second (less than a second forward; it only ever moves forward).
            let second = revokedAt.timeIntervalSince1970.rounded(.down)
            state.clockOffset += second + 1 - revokedAt.timeIntervalSince1970
            for (code, grant) in state.authorizationCodes where grant.upn.lowercased() == upn {
                state.authorizationCodes[code]?.revoked = true
            }
            return keys.count
        }
    }

    /// When `upn`'s sessions were last revoked (``revokeRefreshTokens(upn:)``), if ever.
    func sessionsRevokedAt(upn: String) -> Date? {
        locked { $0.sessionsRevokedAt[upn.lowercased()] }
    }

    /// Starts a device-code flow; returns (device_code, user_code).
    func issueDeviceCode(clientId: String, scopes: ScopeRequest, capabilities: [String]) -> (deviceCode: String, userCode: String) {
        let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
        let userCode = String((0..<9).map { _ in alphabet.randomElement()! })
        let deviceCode = "mock-dc." + Base64URL.randomToken()
        locked { state in
            state.deviceCodes[deviceCode] = DeviceCodeGrant(
                clientId: clientId, userCode: userCode, scopes: scopes, capabilities: capabilities,
                expiresAt: state.now().addingTimeInterval(TimeInterval(state.directory.lifetimes.deviceCode)),
                approvedUPN: nil, denied: false, redeemed: false, interval: state.directory.lifetimes.deviceCodeInterval)
        }
        return (deviceCode, userCode)
    }

    /// Completes the device-code sign-in identified by `userCode` as `upn` (or denies it).
    /// Returns false when no pending code matches.
    public func completeDeviceCode(userCode: String, upn: String?, deny: Bool = false) -> Bool {
        let wanted = userCode.uppercased().replacingOccurrences(of: "-", with: "")
        return locked { state in
            guard let (key, grant) = state.deviceCodes.first(where: { $0.value.userCode == wanted && !$0.value.redeemed }),
                grant.expiresAt > state.now()
            else { return false }
            state.deviceCodes[key]?.approvedUPN = upn?.lowercased()
            state.deviceCodes[key]?.denied = deny
            return true
        }
    }

    /// Polls a device code: pending until approved, then redeemable once. A poll sooner than
    /// the code's interval after the previous one (100 ms of slack for timers) is `slowDown`
    /// and adds 5 s to the interval (RFC 8628 §3.5); the first poll is never too soon.
    func redeemDeviceCode(_ deviceCode: String, clientId: String) -> Result<(DeviceCodeGrant, String), RedemptionFailure> {
        locked { state in
            guard let grant = state.deviceCodes[deviceCode] else { return .failure(.unknown) }
            guard grant.clientId == clientId else { return .failure(.wrongClient) }
            let now = state.now()
            guard grant.expiresAt > now else { return .failure(.expired) }
            guard !grant.redeemed else { return .failure(.alreadyRedeemed) }
            state.deviceCodes[deviceCode]?.lastPoll = now
            if let last = grant.lastPoll, now.timeIntervalSince(last) < Double(grant.interval) - 0.1 {
                state.deviceCodes[deviceCode]?.interval = grant.interval + 5
                return .failure(.slowDown)
            }
            if grant.denied { return .failure(.denied) }
            guard let upn = grant.approvedUPN else { return .failure(.authorizationPending) }
            state.deviceCodes[deviceCode]?.redeemed = true
            return .success((grant, upn))
        }
    }
}
