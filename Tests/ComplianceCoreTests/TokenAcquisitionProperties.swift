import JSON
import PropertyBased
import Testing
@testable import ComplianceCore

@Suite struct TokenAcquisitionProperties {
    static let responses: [TokenResponse] = [
        .success(tokenSet()),
        .protectionPolicyRequired(ProtectionPolicyRequired(displayableID: "alice@contoso.com", serverError: serverError("unauthorized_client", suberror: "protection_policy_required"))),
        .interactionRequired(InteractionRequired(reason: .basicAction, claimsChallenge: #"{"access_token":{"xms_cc":{"values":"x"},"acrs":{"value":"c1"}}}"#, serverError: serverError("invalid_grant", suberror: "basic_action"))),
        .interactionRequired(InteractionRequired(reason: .invalidGrant, serverError: serverError("invalid_grant"))),
        .badRefreshToken(BadRefreshToken(reason: .clientMismatch, serverError: serverError("invalid_grant", suberror: "client_mismatch"))),
        .capabilityMissing(serverError("invalid_grant", codes: [53009])),
        .serviceFailure(ServiceFailure(status: 503, retryAfter: .seconds(5))),
        .requestRejected(serverError("invalid_client")),
        .malformed(MalformedResponse(status: 502, message: "HTTP 502 response has an empty body")),
        .requestRejected(ServerError(status: 401, error: "invalid_client", errorDescription: "empty body", derivedFromStatus: true)),
        .success(TokenSet(accessToken: SecretToken("eyJ0eXAi.partial"), refreshToken: SecretToken("refresh-2"), expiresOn: t0.advanced(by: .hours(1)), scopes: ["openid"])),
    ]

    @Test func everyGrantDeclaresProtappAndExactlyOneOutcomeIsDelivered() async {
        await propertyCheck(count: 300, input: choiceLists) { list in
            var choices = Choices(list)
            let challenge = choices.pick([nil, #"{"access_token":{"nbf":{"essential":true}}}"#])
            let interactive = choices.next(2) == 0
            var machine = TokenAcquisitionStateMachine(request: .init(account: alice, scopes: ["user.read"], claimsChallenge: challenge, allowInteraction: interactive))
            var violations = Violations(TokenAcquisitionStateMachine.documentedTransitions)
            var outcomes = 0
            var removed = false
            var storedRefreshToken: SecretToken?

            func step(_ body: (inout TokenAcquisitionStateMachine) -> TokenAcquisitionStateMachine.Action) -> TokenAcquisitionStateMachine.Action {
                let from = machine.stateName
                let action = body(&machine)
                violations.transition(from, machine.stateName)
                switch action {
                case .deliverTokens(let tokens, let store):
                    outcomes += 1
                    violations.check(!removed, "tokens delivered after the account was removed")
                    if !store {
                        violations.check(challenge == nil, "cache used despite a claims challenge")
                        violations.check(tokens.expiresOn > t0.advanced(by: .minutes(5)), "token within the 5-minute skew served from cache")
                    }
                case .fail:
                    outcomes += 1
                case .keepGranted(let tokens, let scopes, let failure):
                    outcomes += 1
                    violations.check(!removed, "tokens kept after the account was removed")
                    violations.check(
                        scopes.allSatisfy { tokens.scopes.contains($0) }, "tokens kept under scopes the issuer did not grant: \(scopes) of \(tokens.scopes)")
                    if case .declinedScopes = failure {} else { violations.check(false, "kept tokens fail with \(failure)") }
                case .requestToken(let grant, _, _, let claims):
                    let parsed = claims.flatMap { try? JSONValue.parse($0) }
                    violations.check(parsed.map { ClaimsRequest.declares("protapp", in: $0) } ?? false, "grant without protapp: \(claims ?? "nil")")
                    violations.check(!grant.isInteractive || interactive, "interactive grant when interaction is not allowed")
                default:
                    break
                }
                return action
            }

            var action = step { $0.start() }
            for _ in 0..<20 {
                if choices.next(8) == 1 {
                    removed = removed || !["finished", "failed"].contains(machine.stateName)
                    _ = step { $0.accountRemoved() }
                }
                switch action {
                case .readCache:
                    if choices.next(6) == 0 {
                        action = step { $0.storeFailed("disk I/O error") }
                        if !removed { violations.check(action == .fail(.tokenCacheUnreadable("disk I/O error")), "an unreadable cache answered \(action)") }
                        break
                    }
                    let expiry = t0.advanced(by: .minutes(Int64(choices.next(12))))
                    storedRefreshToken = choices.next(2) == 0 ? SecretToken("rt-\(choices.next(3))") : nil
                    let entry = TokenAcquisitionStateMachine.CacheEntry(
                        accessToken: choices.next(2) == 0 ? tokenSet(expiresOn: expiry) : nil, refreshToken: storedRefreshToken)
                    action = step { $0.cacheRead(entry, now: t0) }
                case .requestToken(let grant, _, _, _):
                    if case .refreshToken(let presented) = grant {
                        violations.check(presented == storedRefreshToken, "a refresh grant presents another token than the cache read found")
                    }
                    switch choices.next(10) {
                    case 0: action = step { $0.transportFailed("reset") }
                    case 1 where grant.isInteractive: action = step { $0.userCancelled() }
                    case 2 where grant.isInteractive: action = step { $0.issuerMisconfigured("HTTP 403") }
                    default:
                        let response = choices.pick(Self.responses)
                        action = step { $0.tokenResponseReceived(response) }
                    }
                case .removeRefreshToken:
                    // A refresh token that cannot be deleted is not used again either.
                    action = choices.next(4) == 0 ? step { $0.storeFailed("disk full") } : step { $0.refreshTokenRemoved() }
                    storedRefreshToken = nil
                case .deliverTokens, .keepGranted, .fail, .none:
                    action = .none
                }
                if action == .none, ["finished", "failed"].contains(machine.stateName) { break }
            }
            #expect(violations.messages.isEmpty, "\(violations.messages)")
            #expect(outcomes == 1, "\(outcomes) outcomes")
            // Late answers after the outcome change nothing.
            #expect(machine.tokenResponseReceived(.success(tokenSet())) == .none)
        }
    }
}
