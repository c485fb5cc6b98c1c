import Testing
@testable import ComplianceCore

@Suite struct AccountIDTests {
    @Test func comparesCaseInsensitivelyThroughLowercased() throws {
        #expect(try AccountID("Alice@Contoso.COM") == AccountID("alice@contoso.com"))
        #expect(try AccountID("ÄDELE@CONTOSO.COM") == AccountID("ädele@contoso.com"))
        #expect(try AccountID("alice@contoso.com") != AccountID("alice2@contoso.com"))
        let upper = try AccountID("Bob@Contoso.com")
        #expect(upper.upn == "Bob@Contoso.com")
        #expect(upper.key == "bob@contoso.com")
        #expect(Set([try AccountID("A@x.io"), try AccountID("a@X.IO")]).count == 1)
    }

    @Test func carriesTheHomeAccountID() throws {
        let home = try #require(HomeAccountID("oid-1.tid-2"))
        let id = try AccountID("alice@contoso.com", homeAccountID: home)
        #expect(id.homeAccountID?.objectID == "oid-1")
        #expect(id.homeAccountID?.tenantID == "tid-2")
        #expect(id == alice)  // the home id does not take part in equality
        #expect(HomeAccountID("no-dot") == nil)
        #expect(HomeAccountID("a.b.c") == nil)
        #expect(HomeAccountID(".tid") == nil)
    }

    @Test(arguments: [
        ("", AccountIDError.Code.empty),
        (" alice@contoso.com", .surroundingWhitespace),
        ("alice@contoso.com\n", .surroundingWhitespace),
        ("alice@contoso.com\u{00A0}", .surroundingWhitespace),
        ("ali\u{0007}ce@contoso.com", .controlCharacter),
        ("alice smith@contoso.com", .innerWhitespace),
        ("alice.contoso.com", .missingAt),
        ("alice@@contoso.com", .multipleAt),
        ("a@b@contoso.com", .multipleAt),
        ("@contoso.com", .emptyPart),
        ("alice@", .emptyPart),
    ])
    func refusesWithAReason(input: String, code: AccountIDError.Code) {
        #expect(throws: AccountIDError.self) { try AccountID(input) }
        do {
            _ = try AccountID(input)
        } catch {
            #expect(error.code == code)
            #expect(error.input == input)
            #expect(!error.message.isEmpty)
        }
    }
}

/// The byte-level check of printable-ASCII UPNs agrees with the general check on every string
/// up to five characters over an alphabet of the characters that matter (and defers to it on
/// any other byte).
@Suite struct AccountIDASCIIPathTests {
    @Test func agreesWithTheGeneralCheckOnEveryShortString() {
        let alphabet: [String] = ["a", "Z", "@", ".", "-", " ", "\t", "é"]
        var strings: [String] = [""]
        var frontier: [String] = [""]
        for _ in 1...5 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
            strings += frontier
        }
        var disagreements: [String] = []
        for upn in strings {
            let general = (try? AccountID.validateAnyText(upn)) != nil
            switch AccountID.validatePrintableASCII(upn) {
            case .some(let fast): if fast != general { disagreements.append(upn) }
            case .none: if upn.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) { disagreements.append(upn) }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { $0.debugDescription })")
        #expect(strings.count == 37449)
    }

    @Test func aLongASCIIUPNIsRefusedByEitherPath() {
        let long = String(repeating: "a", count: AccountID.maxBytes) + "@x.io"
        #expect(AccountID.validatePrintableASCII(long) == false)
        #expect(throws: AccountIDError.self) { try AccountID(long) }
    }
}
