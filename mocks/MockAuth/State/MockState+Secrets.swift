import JSON

/// What the mock handed out that a client must never log: for leak tests, in-process only
/// (never served over HTTP, never in the request log).
extension MockState {
    /// Starts or stops recording issued access and id tokens (off by default; codes and
    /// refresh tokens are kept by the grants anyway).
    public func setRecordsIssuedTokens(_ on: Bool) {
        locked { $0.recordsIssuedTokens = on }
    }

    /// Every authorization code and refresh token issued since the last reset, and the access
    /// and id tokens issued while recording was on.
    public func issuedSecrets() -> [String] {
        locked { Array($0.authorizationCodes.keys) + Array($0.refreshTokens.keys) + $0.issuedTokens }
    }

    /// Records the tokens of a token endpoint success body.
    func noteIssued(_ body: JSONValue) {
        locked { state in
            guard state.recordsIssuedTokens else { return }
            for key in ["access_token", "id_token"] {
                if let token = body[key]?.stringValue { state.issuedTokens.append(token) }
            }
        }
    }
}
