import JSON

/// What the mock handed out that a client must never log: for leak tests, in-process only
/// (never served over HTTP, never in the request log).
extension MockState {
    /// Starts or stops recording issued access and id tokens (off by default; codes and
    /// refresh tokens are kept by the grants anyway).
    public func setRecordsIssuedTokens(_ on: Bool) {
        recordsIssuedTokens = on
    }

    /// Every authorization code and refresh token issued since the last reset, and the access
    /// and id tokens issued while recording was on.
    public func issuedSecrets() -> [String] {
        Array(authorizationCodes.keys) + Array(refreshTokens.keys) + issuedTokens
    }

    /// Records the tokens of a token endpoint success body.
    func noteIssued(_ body: JSONValue) {
        guard recordsIssuedTokens else { return }
        for key in ["access_token", "id_token"] {
            if let token = body[key]?.stringValue { issuedTokens.append(token) }
        }
    }
}
