import ComplianceCore

/// One fuzz input for ComplianceCore's token response classifier. The first byte picks the
/// HTTP status, the second a Retry-After header; the rest is the body. Classification must
/// never crash, and every outcome must describe itself without revealing a token. Run by the
/// libFuzzer target (Targets/FuzzTokenClassifier.swift) and replayed over the corpus by the
/// test command (Replay/).
func fuzzTokenClassifierInput(_ bytes: [UInt8]) {
    let statuses = [200, 400, 401, 403, 429, 500, 503, 302, 404, 0, 999, -1]
    let status = bytes.first.map { statuses[Int($0) % statuses.count] } ?? 200
    let retryAfters = ["120", " 5 ", "-1", "99999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT", "", "0"]
    var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
    if bytes.count > 1, bytes[1] < UInt8(retryAfters.count * 2) {
        headers.append(("Retry-After", retryAfters[Int(bytes[1]) % retryAfters.count]))
    }
    let body = Array(bytes.dropFirst(2))
    let response = TokenResponseClassifier.classify(
        status: status, headers: headers, body: body, receivedAt: Instant(millisecondsSinceEpoch: 1_700_000_000_000),
        authority: "https://login.example.com/contoso.com")
    let described = response.description + response.debugDescription
    if case .success(let tokens) = response {
        let secret = tokens.accessToken.reveal()
        if secret.count >= 8, described.contains(secret) { fatalError("a token response's description reveals its access token") }
    }
    if let challenge = claimsChallenge(of: response) {
        _ = try? ClaimsRequest.parameter(capabilities: ["protapp"], challenge: challenge)
    }
}

/// The claims challenge an answer carries, to feed the merge the engine would run next.
private func claimsChallenge(of response: TokenResponse) -> String? {
    switch response {
    case .interactionRequired(let details): details.claimsChallenge
    case .badRefreshToken(let details): details.claimsChallenge
    default: nil
    }
}
