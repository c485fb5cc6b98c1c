import ArgumentParser
import ComplianceCore

/// The issuer options `complianced` and `compliancectl run` share: which issuer, as which
/// client, its MAM service and the CAs to trust. One definition (`@OptionGroup`), so both
/// programs spell, explain and check them alike.
public struct IssuerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Issuer authority, an Entra-shaped {host}/{tenant}, e.g. http://127.0.0.1:8080/contoso.com (overrides the profile's ADALAuthority; with neither, the common authority https://login.microsoftonline.com/common).",
        valueName: "url"))
    public var authority: String?

    @Option(name: .customLong("oidc-issuer"), help: ArgumentHelp(
        "Any OpenID Connect issuer instead of an Entra authority (discovery at URL/.well-known/openid-configuration; its issuer must be URL).",
        valueName: "url"))
    public var oidcIssuer: String?

    @Option(name: .customLong("client-id"), help: ArgumentHelp("The client id at the issuer (overrides the profile's ADALClientId).", valueName: "id"))
    public var clientID: String?

    @Option(name: .customLong("client-secret-file"), help: ArgumentHelp(
        "A confidential client's secret, read from FILE (owner-only: refused when group or others may read it).", valueName: "file"))
    public var clientSecretFile: String?

    @Option(name: .customLong("client-auth"), help: ArgumentHelp(
        "How the secret is sent: basic (client_secret_basic, the default) or post (client_secret_post).", valueName: "method"))
    public var clientAuth: String?

    @Option(name: .customLong("mam-url"), help: ArgumentHelp(
        "MAM service base URL (default for --authority: its origin + /mam/v1, and an authority override then brings its own; an --oidc-issuer has none unless given: no registration, no remediation).",
        valueName: "url"))
    public var mamURL: String?

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM file of CAs to trust for https (verification is never disabled).", valueName: "pem"))
    public var caFile: String?

    public init() {}

    /// The checks both programs make before anything starts.
    public func validate() throws {
        if authority != nil, oidcIssuer != nil {
            throw ValidationError("give --authority (an Entra-shaped authority) or --oidc-issuer (any OpenID Connect issuer), not both.")
        }
        if let authority, let problem = SettingsOverrides.authorityProblem(authority, name: "--authority") { throw ValidationError(problem + ".") }
        if let oidcIssuer, let problem = SettingsOverrides.authorityProblem(oidcIssuer, name: "--oidc-issuer") { throw ValidationError(problem + ".") }
        if let mamURL, let problem = SettingsOverrides.authorityProblem(mamURL, name: "--mam-url") { throw ValidationError(problem + ".") }
        if let clientID, clientID.isEmpty { throw ValidationError("--client-id is empty.") }
        if let clientAuth {
            guard ["basic", "post"].contains(clientAuth) else { throw ValidationError("--client-auth must be basic or post, got '\(clientAuth)'.") }
            guard clientSecretFile != nil else { throw ValidationError("--client-auth needs --client-secret-file.") }
        }
    }
}
