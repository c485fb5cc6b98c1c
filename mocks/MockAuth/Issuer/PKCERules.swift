/// RFC 7636's shapes for PKCE values, enforced as Entra enforces them.
///
/// A verifier (and a `plain` challenge, which is the verifier) is 43–128 characters of the
/// unreserved set `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"` (§4.1); an `S256`
/// challenge is BASE64URL of a SHA-256 digest, unpadded: exactly 43 characters (§4.2).
/// Entra refuses a challenge of another size at authorize (AADSTS501491) and a verifier
/// of another shape at the token endpoint.
enum PKCERules {
    /// True when `value` is 43–128 unreserved characters.
    static func isValidVerifier(_ value: String) -> Bool {
        let bytes = value.utf8
        return (43...128).contains(bytes.count) && bytes.allSatisfy(isUnreserved)
    }

    /// True when `challenge` has the shape `method` produces.
    static func isValidChallenge(_ challenge: String, method: String) -> Bool {
        guard isValidVerifier(challenge) else { return false }
        return method != "S256" || challenge.utf8.count == 43
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
