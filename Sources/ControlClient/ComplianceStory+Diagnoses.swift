import ComplianceCore
import JSON

extension ComplianceStory {
    /// One remediation, from its `remediationStarted` to its one `compliance` report.
    private struct Run {
        /// The request it remediates: the scopes of the 53005 that started it.
        var scopes: [String]?
        /// The first policy (100, 101, 208) the run received.
        var policy: Int64?
        /// The retried request's 53005, after the MAM service took the compliance report.
        var retryBlocked: Int64?
    }

    /// A remediation that received policy but ended without reporting compliance.
    private struct Unreported {
        var scopes: [String]?
        var policy: Int64
        var report: Int64
    }

    /// The loops in one account's events (oldest first). A 53005 is the normal first step of a
    /// remediation (also after the issuer forgot a compliance); a diagnosis names only:
    /// - ``Diagnosis/Kind/protectionRequiredAfterCompliant``: inside one remediation, the MAM
    ///   service took the Compliant report (the run got its policy and retried) and the retried
    ///   request met 53005 again: the issuer does not see that compliance;
    /// - ``Diagnosis/Kind/policyWithoutCompliance``: a remediation received policy but its
    ///   compliance report failed, and the same request then met 53005 again;
    /// - ``Diagnosis/Kind/capabilityMissing``: 53009, the app does not declare `protapp`.
    /// A wipe, an unenrollment or a sign-out starts the account's story afresh.
    static func diagnose(_ events: [JSONValue]) -> [Diagnosis] {
        var run: Run?
        var unreported: Unreported?
        var lastBlockedScopes: [String]?
        var afterCompliant: [Int64] = []
        var withoutCompliance: [Int64] = []
        var missing: [Int64] = []
        for event in events {
            let seq = event["seq"]?.intValue ?? 0
            let payload = event["payload"] ?? .null
            let scopes = payload["scopes"]?.arrayValue?.compactMap(\.stringValue)
            switch kind(event) {
            case .remediationStarted?:
                run = Run(scopes: lastBlockedScopes)
            case .enrollment?, .policy?:
                if let code = payload["status"]?.intValue, [100, 101, 208].contains(code), run != nil, run?.policy == nil { run?.policy = seq }
            case .tokenFailed? where isProtectionRequired(event):
                if let current = run, let policy = current.policy, current.retryBlocked == nil, current.scopes == nil || current.scopes == scopes {
                    run?.retryBlocked = seq
                    if afterCompliant.isEmpty { afterCompliant = [policy] }
                    afterCompliant.append(seq)
                } else if run == nil, let earlier = unreported, earlier.scopes == nil || earlier.scopes == scopes {
                    if withoutCompliance.isEmpty { withoutCompliance = [earlier.policy, earlier.report] }
                    withoutCompliance.append(seq)
                    unreported = nil
                }
                lastBlockedScopes = scopes
            case .tokenFailed? where isCapabilityMissing(event):
                missing.append(seq)
            case .compliance?:
                let report = payload["report"] ?? .null
                if report["status"]?["code"]?.intValue == 0 {
                    unreported = nil
                } else if let current = run, let policy = current.policy, current.retryBlocked == nil,
                          let enrollment = report["enrollmentStatus"], enrollment != .null {
                    // The run failed at its compliance report (the report names an enrollment status).
                    unreported = Unreported(scopes: current.scopes, policy: policy, report: seq)
                }
                run = nil
            case .wipeStarted?, .unenroll?, .signedOut?:
                run = nil
                unreported = nil
            default:
                break
            }
        }
        return [
            (Diagnosis.Kind.protectionRequiredAfterCompliant, afterCompliant),
            (.policyWithoutCompliance, withoutCompliance),
            (.capabilityMissing, missing),
        ].filter { !$0.1.isEmpty }.map { Diagnosis(kind: $0.0, evidence: $0.1, message: message($0.0, $0.1)) }
    }

    /// What a diagnosis says, citing its evidence (sequence numbers) in order.
    private static func message(_ kind: Diagnosis.Kind, _ seq: [Int64]) -> String {
        switch kind {
        case .protectionRequiredAfterCompliant:
            "the remediation received policy (#\(seq[0])) and the MAM service took its Compliant report, "
                + "but the retried request met 53005 again (#\(seq[1])): the issuer does not see that compliance. "
                + "Check that the token is asked for the same app (client id) and tenant that enrolled and reported, and that "
                + "the conditional-access policy reads this MAM service's compliance state."
        case .policyWithoutCompliance:
            "policy was received (#\(seq[0])) but the compliance report failed (#\(seq[1])), "
                + "and the same request met 53005 again (#\(seq[2])): the conditional-access check waits for a "
                + "compliance report after the policy is applied (report-compliance), not for the enrollment alone."
        case .capabilityMissing:
            "53009 (#\(seq[0])): the app does not declare the protapp client capability, so the issuer cannot ask "
                + "for app protection (53005) and the request cannot be remediated. Add protapp to MSALClientCapabilities "
                + "(compliancectl profile lint checks it)."
        }
    }
}
