import Testing
@testable import ComplianceCore

/// The values that cannot be runtime overrides of the Entra settings
/// (``SettingsOverrides/problem(authority:clientID:redirectURI:)``), each refused by name.
@Suite struct SettingsOverridesProblemTests {
    @Test func valuesThatCannotBeOverridesAreNamed() {
        #expect(SettingsOverrides.problem(authority: "https://login.microsoftonline.com/contoso.com", clientID: "chatr", redirectURI: "msauth.com.contoso.chatr://auth") == nil)
        #expect(SettingsOverrides.problem(authority: "ftp://x/y", clientID: nil, redirectURI: nil)?.contains("aadAuthorityUriOverride") == true)
        #expect(SettingsOverrides.problem(authority: "https:///nohost", clientID: nil, redirectURI: nil) != nil)
        #expect(SettingsOverrides.problem(authority: nil, clientID: "has space", redirectURI: nil)?.contains("aadClientIdOverride") == true)
        #expect(SettingsOverrides.problem(authority: nil, clientID: "", redirectURI: nil) != nil)
        #expect(SettingsOverrides.problem(authority: nil, clientID: nil, redirectURI: "1abc://x")?.contains("aadRedirectUriOverride") == true)
        #expect(SettingsOverrides.problem(authority: nil, clientID: nil, redirectURI: "noscheme") != nil)
    }

    /// Credentials never ride in an authority URL, and a refused one is not quoted back
    /// (issue 36, point 11); fragments, queries and overlong URLs are refused too.
    @Test func authorityURLsWithCredentialsFragmentsOrQueriesAreRefused() {
        let withPassword = SettingsOverrides.problem(authority: "http://admin:Hunter2@login.example.com/contoso.com", clientID: nil, redirectURI: nil)
        #expect(withPassword?.contains("user information") == true)
        #expect(withPassword?.contains("Hunter2") == false)
        #expect(SettingsOverrides.problem(authority: "https://user@login.example.com/contoso.com", clientID: nil, redirectURI: nil) != nil)
        #expect(SettingsOverrides.problem(authority: "https://login.example.com/contoso.com#x", clientID: nil, redirectURI: nil)?.contains("fragment") == true)
        #expect(SettingsOverrides.problem(authority: "https://login.example.com/contoso.com?x=1", clientID: nil, redirectURI: nil)?.contains("query") == true)
        let long = "https://login.example.com/" + String(repeating: "a", count: SettingsOverrides.maxAuthorityLength)
        #expect(SettingsOverrides.problem(authority: long, clientID: nil, redirectURI: nil)?.contains("at most") == true)
        #expect(SettingsOverrides.problem(authority: "https://login.example.com/a@b", clientID: nil, redirectURI: nil) == nil, "an @ in the path is no user information")
    }

    /// Ports are numbers from 1 to 65535, hosts are names or bracketed IPv6 literals, and a
    /// redirect URI holds neither a fragment nor user information (issue 36's attack).
    @Test func malformedPortsHostsAndRedirectURIsAreRefused() {
        func authority(_ url: String) -> String? { SettingsOverrides.problem(authority: url, clientID: nil, redirectURI: nil) }
        for url in ["http://127.0.0.1:8443/contoso.com", "https://login.example.com/contoso.com", "http://[::1]:9000/t", "https://[fe80::1]/t",
                    "https://LOGIN.example.com:443/x"] {
            #expect(authority(url) == nil, "\(url)")
        }
        for (url, says) in [("http://127.0.0.1:99999/t", "port"), ("http://127.0.0.1:/t", "port"), ("http://127.0.0.1:80a/t", "port"),
                            ("http://127.0.0.1:0/t", "port"), ("http://127.0.0.1:-1/t", "port"), ("http://a:1:2/t", "port"),
                            ("http://[::1/t", "IPv6"), ("http://[xyz]/t", "IPv6"), ("http://[::1]x/t", "IPv6"), ("http://ho%73t/t", "host"),
                            ("http://a_b.example/t", "host")] {
            #expect(authority(url)?.contains(says) == true, "\(url): \(authority(url) ?? "accepted")")
        }
        func redirect(_ uri: String) -> String? { SettingsOverrides.problem(authority: nil, clientID: nil, redirectURI: uri) }
        #expect(redirect("msauth.com.contoso.chatr://auth") == nil)
        #expect(redirect("http://localhost:8400/cb") == nil)
        #expect(redirect("msauth.com.contoso.chatr://auth#x")?.contains("fragment") == true)
        #expect(redirect("https://user:pw@app.example/cb")?.contains("user information") == true)
        #expect(redirect("https://app.example/cb?u=a@b") == nil, "an @ in the query is no user information")
    }
}
