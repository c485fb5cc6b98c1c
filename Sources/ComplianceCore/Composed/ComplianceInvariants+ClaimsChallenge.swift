import JSON

extension ComplianceInvariants {
    /// A MAM call the service refused with a continuous-access-evaluation claims challenge.
    public struct ClaimsChallenge: Sendable, Hashable, Codable {
        /// The account whose call it was.
        public var account: AccountID
        /// The claims JSON text the service demanded.
        public var claims: String
        /// The token the service refused.
        public var refusedToken: SecretToken

        public init(account: AccountID, claims: String, refusedToken: SecretToken) {
            self.account = account
            self.claims = claims
            self.refusedToken = refusedToken
        }
    }

    // MARK: - 24

    /// 24. A MAM call refused with a claims challenge (``Facts/claimsChallenge``, fed by this
    /// transition) is never sent again with the refused token. For an app declaring `cp1`,
    /// every grant the transition sends for the account carries the challenge's claims merged
    /// into its capabilities (``ClaimsRequest``), and while the call is being retried its token
    /// request holds the challenge (so the cache's access token, the refused one, is not used
    /// when the cache answers). An app without `cp1` asks for no grant with the challenge's
    /// claims: the call ends as 203 AuthRequired.
    public static func claimsChallengesAskTheIssuer(_ transition: Transition, facts: Facts) -> [Violation] {
        guard let challenge = facts.claimsChallenge, !transition.persistFailed else { return [] }
        let machine = transition.after
        let cp1 = ComplianceCore.declaresContinuousAccess(machine.configuration.capabilities)
        let demanded = (try? JSONValue.parse(challenge.claims)) ?? .null
        var found: [Violation] = []
        for action in transition.takenActions {
            switch action {
            case .callMAM(_, let request, _) where request.token == challenge.refusedToken:
                found.append(Violation(.claimsChallengesAskTheIssuer, "\(request) was sent again with the token the service refused with a claims challenge"))
            case .requestToken(_, _, let account, _, let claims, _, _) where account == challenge.account:
                let carries = contains(claims.flatMap { try? JSONValue.parse($0) } ?? .null, demanded)
                if cp1, !carries {
                    found.append(Violation(
                        .claimsChallengesAskTheIssuer, "after a claims challenge to \(account.upn)'s MAM call, a grant was sent without its claims (\(claims ?? "none"))"))
                } else if !cp1, carries {
                    found.append(Violation(.claimsChallengesAskTheIssuer, "an app without cp1 answered a claims challenge for \(account.upn)"))
                }
            default:
                break
            }
        }
        for intent in machine.volatile.claimsRetried where intent.account == challenge.account {
            if !cp1 { found.append(Violation(.claimsChallengesAskTheIssuer, "an app without cp1 retries \(intent) after a claims challenge")) }
            let holds = machine.volatile.tokenRequests.values.contains { request in
                request.purpose == .mamCall(intent) && request.machine.request.claimsChallenge == challenge.claims
            }
            let calling = machine.volatile.currentStep[intent] != nil
            if !holds, !calling {
                found.append(Violation(.claimsChallengesAskTheIssuer, "\(intent) is retried after a claims challenge without a token request holding its claims"))
            }
        }
        return found
    }

    /// True when every member of `part` is in `whole` (objects recursively, other values equal).
    static func contains(_ whole: JSONValue, _ part: JSONValue) -> Bool {
        guard case .object(let members) = part else { return whole == part }
        guard case .object(let wholeMembers) = whole else { return false }
        return members.allSatisfy { key, value in wholeMembers[key].map { contains($0, value) } ?? false }
    }
}
