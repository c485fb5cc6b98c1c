import JSON

/// What one poll of the token endpoint during a device-code sign-in (RFC 8628 §3.5) means:
/// the rule the Orchestrator's polling loop follows (it only waits and sends).
public enum DeviceCodePoll: Sendable, Hashable, Codable {
    /// `authorization_pending`: nobody has finished yet; poll again after the interval.
    case pending
    /// `slow_down`: poll again, with the interval ``slowDownIncrementSeconds`` longer from now on.
    case slowDown
    /// `access_denied` (RFC 8628) or `authorization_declined` (Entra): the person declined.
    case declined
    /// `expired_token` (RFC 8628) or `code_expired` (Entra): the code expired unused.
    case expired
    /// Any other answer (tokens, or another error): the token endpoint's answer, to classify
    /// as any grant's (``TokenResponseClassifier``).
    case final

    /// RFC 8628 §3.5: "the interval MUST be increased by 5 seconds for this and all subsequent requests".
    public static let slowDownIncrementSeconds = 5

    /// The meaning of the token endpoint's answer (`status`, `body`) to a device-code poll. The
    /// polling errors come with HTTP 400 and an OAuth `error`; anything else is final.
    public static func classify(status: Int, body: [UInt8]) -> DeviceCodePoll {
        guard status == 400, let error = (try? JSONValue.parse(body))?["error"]?.stringValue else { return .final }
        switch error {
        case "authorization_pending": return .pending
        case "slow_down": return .slowDown
        case "access_denied", "authorization_declined": return .declined
        case "expired_token", "code_expired": return .expired
        default: return .final
        }
    }
}
