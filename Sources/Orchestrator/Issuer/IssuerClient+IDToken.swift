import ComplianceCore
import HTTPClient
import JSON

extension IssuerClient {
    /// Validates an id_token this issuer sent (``IDToken``) and returns who signed in. The
    /// issuer's keys (its `jwks_uri`) are fetched at the first validation and cached; a token
    /// signed with a key the cached set lacks fetches them again, once (the issuer rotated
    /// its keys).
    ///
    /// - Parameters:
    ///   - nonce: the authorization request's nonce; nil for grants that sent none.
    ///   - times: the clock readings the token's lifetime is checked at (``IDTokenClaims/Times``).
    /// - Throws: ``IssuerError/Code/invalidIDToken`` naming the failed check;
    ///   ``IssuerError/Code/network`` when the keys cannot be fetched.
    public func validate(idToken: String, nonce: String?, at times: IDTokenClaims.Times) async throws(IssuerError) -> TokenIdentity {
        let metadata = try await discover()
        let endpoint = metadata.jwksURI ?? metadata.issuer
        func invalid(_ error: IDTokenError) -> IssuerError { IssuerError(.invalidIDToken, error.message, endpoint: endpoint) }
        let token: IDToken
        do { token = try IDToken(idToken) } catch { throw invalid(error) }
        var keys = try await keySet(metadata, refresh: false)
        do {
            try token.verifySignature(with: keys)
        } catch where error.unknownKeyID != nil {
            keys = try await keySet(metadata, refresh: true)
            do { try token.verifySignature(with: keys) } catch { throw invalid(error) }
        } catch {
            throw invalid(error)
        }
        let expected = IDTokenClaims.Expectations(
            issuer: metadata.issuer, clientID: configuration.clientID, nonce: nonce, entra: configuration.authority.isEntra)
        do { return try token.validate(expected, at: times) } catch { throw invalid(error) }
    }

    /// The cached key set, or the issuer's (fetched when none is cached or `refresh`).
    private func keySet(_ metadata: IssuerMetadata, refresh: Bool) async throws(IssuerError) -> JSONWebKeySet {
        if !refresh, let signingKeys { return signingKeys }
        guard let url = metadata.jwksURI else {
            throw IssuerError(.invalidIDToken, "the issuer's discovery document names no jwks_uri: its id_tokens cannot be checked", endpoint: metadata.issuer)
        }
        let response = try await send(HTTPClientRequest(method: .get, url: url, headers: ["Accept": "application/json"]), endpoint: url)
        guard response.status == 200 else {
            throw IssuerError(.invalidIDToken, "the issuer's key set at \(url) answered HTTP \(response.status)", endpoint: url)
        }
        do {
            let keys = try JSONWebKeySet(json: try JSONValue.parse(response.body))
            signingKeys = keys
            logger.debug("issuer keys fetched", metadata: ["issuer.keys": "\(keys.keys.count)"])
            return keys
        } catch let error as IDTokenError {
            throw IssuerError(.invalidIDToken, "\(error.message) (\(url))", endpoint: url)
        } catch {
            throw IssuerError(.invalidIDToken, "the issuer's key set at \(url) is not JSON: \(error)", endpoint: url)
        }
    }
}
