import CJansson
import Foundation
import JSON
import MockAuth

#if canImport(Glibc)
import Glibc
#endif

/// Issue 9: parse + encode of a token response through the JSON module (jansson underneath,
/// plus the `JSONValue` tree) against jansson alone (`json_loads` + `json_dumps`, same
/// flags), same bytes, same run. Rounds alternate.
enum JSONBenchmark {
    static func run(iterations: Int, rounds: Int) throws {
        let text = try tokenResponse()
        let bytes = Array(text.utf8)
        let cString = text.utf8CString
        let roundTrip = try JSONValue.parse(bytes).encoded()
        precondition(roundTrip == bytes, "the token response does not round-trip")
        var module = Samples()
        var bare = Samples()
        let clock = ContinuousClock()
        for round in 0...rounds {  // round 0 warms up
            for _ in 0..<iterations {
                let start = clock.now
                let encoded = try JSONValue.parse(bytes).encoded()
                let elapsed = clock.now - start
                precondition(encoded.count == bytes.count)
                if round > 0 { module.append(elapsed) }
            }
            for _ in 0..<iterations {
                let start = clock.now
                let count = cString.withUnsafeBufferPointer { janssonRoundTrip($0.baseAddress!) }
                let elapsed = clock.now - start
                precondition(count == bytes.count)
                if round > 0 { bare.append(elapsed) }
            }
        }
        print("JSON: parse + encode of a \(bytes.count)-byte token response, \(rounds) rounds × \(iterations)")
        print("  JSON module (JSONValue.parse + encoded): median \(micros(module.median)), p99 \(micros(module.percentile(0.99))), mean \(micros(module.mean))")
        print("  jansson alone (json_loads + json_dumps) : median \(micros(bare.median)), p99 \(micros(bare.percentile(0.99))), mean \(micros(bare.mean))")
        print("  ratio module / jansson: median \(ratio(module.median, bare.median)), mean \(ratio(module.mean, bare.mean))  (goal ≤ 1.3)")
    }

    /// json_loads + json_dumps with the JSON module's flags; returns the encoded length.
    private static func janssonRoundTrip(_ text: UnsafePointer<CChar>) -> Int {
        var error = json_error_t()
        let root = json_loads(text, Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL), &error)!
        defer { cjansson_decref(root) }
        let dumped = json_dumps(root, Int(JSON_COMPACT | JSON_ENCODE_ANY))!
        defer { free(dumped) }
        return strlen(dumped)
    }

    /// A password-grant success body as mockauth sends it: access token, refresh token,
    /// id_token and client_info, signed with a fresh key.
    private static func tokenResponse() throws -> String {
        let key = try SigningKey.generate()
        let claims: JSONValue = [
            "aud": "api://contoso-chat", "iss": "http://127.0.0.1:8080/8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d/v2.0",
            "iat": 1_800_000_000, "nbf": 1_800_000_000, "exp": 1_800_003_600, "azp": "chatr", "azpacr": "0",
            "name": "Alice Example", "oid": "00000000-0000-0000-0000-00000000a11c", "preferred_username": "alice@contoso.com",
            "scp": "Chat.Read", "sub": "0b6Qm3mQ0pZ8Q8k7x2Yd1o9n4Jt3b2FZy6rj5uK1Ew0", "tid": "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d",
            "upn": "alice@contoso.com", "uti": "q3Zk0R1fT2uJ9mYy8bX1Aw", "ver": "2.0", "xms_cc": ["protapp"],
        ]
        let response: JSONValue = [
            "token_type": "Bearer", "scope": "api://contoso-chat/Chat.Read openid profile offline_access",
            "expires_in": 3600, "ext_expires_in": 3600,
            "access_token": .string(try JWT.sign(claims, with: key)),
            "refresh_token": .string("mock-rt." + Base64URL.randomToken(bytes: 48)),
            "id_token": .string(try JWT.sign(["aud": "chatr", "iss": claims["iss"]!, "name": "Alice Example", "ver": "2.0"], with: key)),
            "client_info": .string(Base64URL.encode(#"{"uid":"00000000-0000-0000-0000-00000000a11c","utid":"8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d"}"#.utf8)),
        ]
        return response.encodedString()
    }
}
