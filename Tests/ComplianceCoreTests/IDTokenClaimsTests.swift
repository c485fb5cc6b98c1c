import JSON
import Testing
@testable import ComplianceCore

/// The id_token's claims checked at the engine's times, by feeding claims and times: the
/// wall clock, and with a virtual clock also the virtual time (a token valid at either is).
@Suite struct IDTokenClaimsTests {
    static let issuer = "https://login.example/tenant/v2.0"
    static let wall: Int64 = 1_800_000_000
    static let expected = IDTokenClaims.Expectations(issuer: issuer, clientID: "chatr", nonce: "n-1", entra: false)

    /// Claims issued at `issuedAt`, valid one hour.
    static func claims(issuedAt: Int64, _ changes: [String: JSONValue?] = [:]) -> IDTokenClaims {
        var object: JSONObject = [
            "iss": .string(issuer), "aud": "chatr", "sub": "s-1", "nonce": "n-1", "preferred_username": "bob@contoso.com",
            "iat": .int(issuedAt), "nbf": .int(issuedAt), "exp": .int(issuedAt + 3600),
        ]
        for (name, value) in changes { object[name] = value }
        return IDTokenClaims(.object(object))
    }

    @Test func validAtTheWallClockNeedsNoVirtualTime() throws {
        let identity = try Self.claims(issuedAt: Self.wall).validate(Self.expected, at: .init(wall: Self.wall))
        #expect(identity.username == "bob@contoso.com" && identity.subject == "s-1 at \(Self.issuer)")
    }

    /// A flow moved the virtual clock and mockauth's with it by two days: the token is
    /// expired by the wall clock, valid at the virtual time.
    @Test func aTokenOfAnIssuerMovedWithTheVirtualClockIsValidAtTheVirtualTime() throws {
        let virtual = Self.wall + 2 * 86_400
        let token = Self.claims(issuedAt: virtual)
        #expect(throws: IDTokenError.self) { try token.validate(Self.expected, at: .init(wall: Self.wall)) }
        let identity = try token.validate(Self.expected, at: .init(wall: Self.wall, virtual: virtual))
        #expect(identity.subject == "s-1 at \(Self.issuer)")
    }

    /// A real issuer's token stays valid while the virtual clock runs ahead of it.
    @Test func aTokenValidAtTheWallClockStaysValidWhateverTheVirtualTime() throws {
        let token = Self.claims(issuedAt: Self.wall)
        _ = try token.validate(Self.expected, at: .init(wall: Self.wall, virtual: Self.wall + 30 * 86_400))
    }

    @Test func expiredAtBothTimesIsRefusedNamingTheCheck() {
        let token = Self.claims(issuedAt: Self.wall - 86_400)
        let error = #expect(throws: IDTokenError.self) { try token.validate(Self.expected, at: .init(wall: Self.wall, virtual: Self.wall + 60)) }
        #expect(error?.message.contains("expired at") == true, "\(String(describing: error))")
    }

    /// `nbf` in the future at both times.
    @Test func notYetValidAtEitherTimeIsRefused() {
        let token = Self.claims(issuedAt: Self.wall + 86_400)
        let error = #expect(throws: IDTokenError.self) { try token.validate(Self.expected, at: .init(wall: Self.wall, virtual: Self.wall + 600)) }
        #expect(error?.message.contains("not valid before") == true, "\(String(describing: error))")
    }

    /// The virtual time rescues only the lifetime: a wrong nonce is wrong at any time.
    @Test func theVirtualTimeDoesNotExcuseAnotherClaim() {
        let token = Self.claims(issuedAt: Self.wall, ["nonce": "other"])
        let error = #expect(throws: IDTokenError.self) { try token.validate(Self.expected, at: .init(wall: Self.wall + 86_400, virtual: Self.wall)) }
        #expect(error?.message.contains("nonce") == true, "\(String(describing: error))")
    }
}
