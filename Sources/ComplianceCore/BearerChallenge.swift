import JSON

/// A resource's `WWW-Authenticate` answer read as a continuous-access-evaluation (CAE) claims
/// challenge, as MSAL's `WwwAuthenticateParameters` reads it: a `Bearer` challenge whose
/// `error` is `insufficient_claims` and whose `claims` parameter is the base64 (standard or
/// URL-safe, padded or not) of a JSON object, for example
/// `Bearer error="insufficient_claims", claims="eyJhY2Nlc3NfdG9rZW4iOnsibmJmIjp7ImVzc2VudGlhbCI6dHJ1ZSwidmFsdWUiOiIxIn19fQ=="`.
///
/// Pure: the Orchestrator hands over the header's text; the machine decides what to do with
/// the claims (``ComplianceMachine``: a `cp1` app asks the issuer again with them).
public enum BearerChallenge {
    /// The claims JSON text the challenge demands, or nil when `header` is no CAE claims
    /// challenge (another scheme or error, no `claims`, a `claims` that is not base64 of a
    /// JSON object). Several challenges in one header are read each; the first `Bearer` one
    /// with claims counts.
    public static func claims(fromWWWAuthenticate header: String) -> String? {
        for challenge in challenges(header) where challenge.scheme.lowercased() == "bearer" {
            guard challenge.parameters["error"]?.lowercased() == "insufficient_claims", let encoded = challenge.parameters["claims"],
                let text = decode(encoded)
            else { continue }
            return text
        }
        return nil
    }

    /// The JSON text `encoded` stands for, when it is base64 of a JSON object.
    static func decode(_ encoded: String) -> String? {
        let text = String(encoded.unicodeScalars.filter { $0 != " " && $0 != "\t" })
        guard !text.isEmpty, text.utf8.count <= 16_384, let bytes = Base64URL.decode(text),
            let json = String(validating: bytes, as: UTF8.self), case .object = try? JSONValue.parse(json)
        else { return nil }
        return json
    }

    /// One challenge: its scheme and its auth-params (names lowercased).
    struct Challenge: Equatable {
        var scheme: String
        var parameters: [String: String] = [:]
    }

    /// The challenges of a `WWW-Authenticate` value (RFC 9110 §11.6.1): a scheme token, then
    /// comma-separated `name=value` auth-params whose value is a token or a quoted string
    /// (with `\` escapes). A token not followed by `=` starts the next challenge.
    static func challenges(_ header: String) -> [Challenge] {
        var result: [Challenge] = []
        var scanner = Array(header.unicodeScalars)[...]
        func skip(_ set: Set<Unicode.Scalar>) { while let first = scanner.first, set.contains(first) { scanner.removeFirst() } }
        func token() -> String {
            var value = ""
            while let first = scanner.first, !" \t,=\"".unicodeScalars.contains(first) {
                value.unicodeScalars.append(first)
                scanner.removeFirst()
            }
            return value
        }
        let blanks: Set<Unicode.Scalar> = [" ", "\t"]
        while !scanner.isEmpty {
            skip(blanks.union([","]))
            let name = token()
            guard !name.isEmpty else {
                if !scanner.isEmpty { scanner.removeFirst() }  // a stray character: step over it
                continue
            }
            skip(blanks)
            if scanner.first == "=", var current = result.popLast() {
                scanner.removeFirst()
                skip(blanks)
                var value = ""
                if scanner.first == "\"" {
                    scanner.removeFirst()
                    while let first = scanner.first {
                        scanner.removeFirst()
                        if first == "\"" { break }
                        if first == "\\", let escaped = scanner.first {
                            scanner.removeFirst()
                            value.unicodeScalars.append(escaped)
                        } else {
                            value.unicodeScalars.append(first)
                        }
                    }
                } else {
                    value = token()
                    // token68 (a base64 value) may end in '=' padding.
                    while scanner.first == "=" {
                        value += "="
                        scanner.removeFirst()
                    }
                }
                if current.parameters[name.lowercased()] == nil { current.parameters[name.lowercased()] = value }
                result.append(current)
            } else if scanner.first == "=" {
                // A parameter before any scheme: not a challenge.
                scanner.removeFirst()
                _ = token()
            } else {
                result.append(Challenge(scheme: name))
            }
        }
        return result
    }
}
