import JSON

// How each object of a fixture file is read. The keys each initialiser asks for are the keys
// that object may hold (``FixtureReader``): any other is refused with the closest known name,
// so a new fixture key is added here, in its type's initialiser, and in mocks/README.md.

extension Fixtures.Tenant {
    init(reading member: FixtureReader) throws {
        id = try member.string("id").lowercased()
        domain = try member.string("domain")
        displayName = try member.optionalString("displayName") ?? domain
    }
}

extension Fixtures.ClientApp {
    init(reading member: FixtureReader) throws {
        clientId = try member.string("clientId")
        displayName = try member.optionalString("displayName") ?? clientId
        isPublic = try Self.readType(member)
        objectId = try member.string("objectId")
        redirectURIs = try Self.readRedirectURIs(member, "redirectUris", spa: false)
        spaRedirectURIs = try Self.readRedirectURIs(member, "spaRedirectUris", spa: true)
        let secret = try member.optionalString("secret")
        certificates = try Self.readCertificates(member, isPublic: isPublic)
        // A confidential client needs a credential: a secret, a certificate, or both.
        if !isPublic, secret == nil, certificates.isEmpty {
            throw FixtureError(path: "\(member.path).secret", message: "missing (a confidential client has a secret or certificates)")
        }
        self.secret = isPublic ? nil : secret
    }

    /// `certificates`: base64 DER certificates with RSA keys (``ClientCertificate``); a public
    /// client has none.
    private static func readCertificates(_ member: FixtureReader, isPublic: Bool) throws -> [ClientCertificate] {
        let texts = try member.optionalStrings("certificates") ?? []
        if isPublic, !texts.isEmpty {
            throw FixtureError(path: "\(member.path).certificates", message: "a public client has no credentials")
        }
        return try texts.enumerated().map { index, text in
            guard let certificate = ClientCertificate(base64: text) else {
                throw FixtureError(path: "\(member.path).certificates[\(index)]", message: "must be a base64 DER X.509 certificate with an RSA key")
            }
            return certificate
        }
    }

    private static func readType(_ member: FixtureReader) throws -> Bool {
        let type = try member.string("type")
        guard ["public", "confidential"].contains(type) else {
            throw FixtureError(path: "\(member.path).type", message: "must be \"public\" or \"confidential\", found \"\(type)\"")
        }
        return type == "public"
    }

    /// The redirect URIs of one platform, each one a client can be sent to (``RedirectURIRules``).
    private static func readRedirectURIs(_ member: FixtureReader, _ key: String, spa: Bool) throws -> [String] {
        let uris = try member.optionalStrings(key) ?? []
        for (index, uri) in uris.enumerated() {
            if let problem = RedirectURIRules.problem(uri) ?? RedirectURIRules.registrationProblem(uri, spa: spa) {
                throw FixtureError(path: "\(member.path).\(key)[\(index)]", message: "'\(uri)' \(problem)")
            }
        }
        return uris
    }
}

extension Fixtures.ProtectedAPI {
    init(reading member: FixtureReader) throws {
        resource = try member.string("resource")
        scopes = try member.optionalStrings("scopes") ?? []
        isMAMService = try member.optionalBool("mamService") ?? false
        declinedScopes = try member.optionalStrings("declinedScopes") ?? []
        if let unknown = declinedScopes.first(where: { !scopes.contains($0) }) {
            throw FixtureError(path: "\(member.path).declinedScopes", message: "'\(unknown)' is not one of the API's scopes \(scopes)")
        }
        consentRequiredScopes = try member.optionalStrings("consentRequiredScopes") ?? []
        if let bad = consentRequiredScopes.first(where: { !scopes.contains($0) || declinedScopes.contains($0) }) {
            throw FixtureError(
                path: "\(member.path).consentRequiredScopes", message: "'\(bad)' is not one of the API's scopes \(scopes), or it is declined")
        }
        appId = try member.optionalString("appId")?.lowercased()
        optionalClaims = try member.optionalStrings("optionalClaims") ?? []
        if let unknown = optionalClaims.first(where: { !Self.knownOptionalClaims.contains($0) }) {
            throw FixtureError(
                path: "\(member.path).optionalClaims", message: "'\(unknown)' is not an optional claim the mock issues \(Self.knownOptionalClaims)")
        }
    }
}

extension Fixtures.User {
    init(reading member: FixtureReader) throws {
        upn = try member.string("upn")
        objectId = try member.string("objectId").lowercased()
        displayName = try member.string("displayName")
        password = try member.string("password")
        caTargeted = try member.optionalBool("caTargeted") ?? false
        mamPolicyAssigned = try member.optionalBool("mamPolicyAssigned") ?? false
        licensed = try member.optionalBool("licensed") ?? true
        mfaRequired = try member.optionalBool("mfaRequired") ?? false
        accountEnabled = try member.optionalBool("accountEnabled") ?? true
        isMicrosoftAccount = try member.optionalBool("microsoftAccount") ?? false
    }
}

extension MAMPolicy {
    init(reading member: FixtureReader) throws {
        let id = try member.string("id")
        let appIds = try member.optionalStrings("appIds") ?? []
        let version = try member.optionalInt("version") ?? 1
        let allowed = try member.member("allowedAccounts")
        let allowedAccounts = allowed.value.isNull ? nil : try allowed.strings()
        var settings = JSONObject()
        let given = try member.member("settings")
        guard let members = given.value.objectValue else { throw FixtureError(path: given.path, message: "must be an object, found \(given.found)") }
        for (name, value) in members {  // each checked against MAMPolicy.settingKinds, the known settings
            if let problem = MAMPolicy.problem(setting: name, value: value) {
                throw FixtureError(path: "\(member.path).settings.\(name)", message: problem)
            }
            settings[name] = value
        }
        self.init(id: id, appIds: appIds, version: version, allowedAccounts: allowedAccounts, settings: settings)
    }
}

extension Fixtures.Lifetimes {
    /// The `lifetimes` object, or the defaults when `member` is nil (no `lifetimes` in the file).
    init(reading member: FixtureReader?) throws {
        accessToken = try member?.optionalInt("accessTokenSeconds") ?? 3600
        authorizationCode = try member?.optionalInt("authorizationCodeSeconds") ?? 300
        refreshToken = try member?.optionalInt("refreshTokenSeconds") ?? 86_400 * 90
        deviceCode = try member?.optionalInt("deviceCodeSeconds") ?? 900
        deviceCodeInterval = try member?.optionalInt("deviceCodeIntervalSeconds") ?? 5
        randomizeAccessToken = try member?.optionalBool("randomizeAccessToken") ?? false
        guard (1...300).contains(deviceCodeInterval) else {
            throw FixtureError(path: "$.lifetimes.deviceCodeIntervalSeconds", message: "must be 1 to 300 seconds")
        }
    }
}

extension LockoutPolicy {
    init(reading member: FixtureReader) throws {
        self.init(
            threshold: try member.optionalInt("threshold", minimum: 0) ?? 10,
            durationSeconds: try member.optionalInt("durationSeconds") ?? 60,
            deviceCodeGuesses: try member.optionalInt("deviceCodeGuesses", minimum: 0) ?? 5)
        if let problem { throw FixtureError(path: member.path, message: problem) }
    }
}
