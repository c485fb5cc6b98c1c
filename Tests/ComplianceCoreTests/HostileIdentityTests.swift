import Testing
@testable import ComplianceCore

/// Identities an attacker might type to pass for alice: case and white space variants,
/// look-alikes from other scripts, compatibility and invisible characters, NUL bytes, trailing
/// dots. None may be treated as alice or allowed in her place (AccountID's documented rule).
@Suite struct HostileIdentityTests {
    let allowed = AllowedAccounts([alice, bob])

    @Test(arguments: ["ALICE@contoso.com", "Alice@CONTOSO.COM", "aLiCe@Contoso.Com"])
    func caseVariantsAreAlice(_ upn: String) throws {
        let variant = try AccountID(upn)
        #expect(variant == alice && variant.key == "alice@contoso.com" && allowed.allows(variant))
    }

    /// Valid names, but other accounts: letters of another script are never folded onto Latin.
    @Test(arguments: [
        "\u{0430}\u{043B}\u{0438}\u{0441}\u{0430}@contoso.com",  // алиса: Cyrillic throughout its part
        "\u{0391}\u{039B}\u{0399}\u{039A}\u{0395}@contoso.com",  // ΑΛΙΚΕ: Greek throughout its part
        "al\u{0131}ce@contoso.com",  // dotless ı (Latin)
        "alice@contoso.co",
        "alice.@contoso.com",
    ])
    func lookAlikesFromOtherScriptsAreOtherAccountsAndNotAllowed(_ upn: String) throws {
        let lookAlike = try AccountID(upn)
        #expect(lookAlike != alice && lookAlike.key != alice.key)
        #expect(!allowed.allows(lookAlike))
        var machine = AllowedAccountsStateMachine(allowed: allowed)
        #expect(machine.signInRequested(lookAlike) == .refuseSignIn(SignInRefusal(code: .notAllowed, account: lookAlike, allowed: allowed)))
    }

    @Test(arguments: [
        ("alice\u{FF20}contoso.com", AccountIDError.Code.lookAlikeCharacter),  // fullwidth ＠
        ("\u{FF41}lice@contoso.com", .lookAlikeCharacter),  // fullwidth ａ
        ("\u{FF21}LICE@contoso.com", .lookAlikeCharacter),  // fullwidth Ａ
        ("\u{212A}ate@contoso.com", .lookAlikeCharacter),  // KELVIN SIGN lowercases to ASCII k
        ("AL\u{0130}CE@contoso.com", .lookAlikeCharacter),  // İ lowercases to i + dot
        ("ali\u{200B}ce@contoso.com", .lookAlikeCharacter),  // zero-width space
        ("ali\u{00AD}ce@contoso.com", .lookAlikeCharacter),  // soft hyphen
        ("alice@contoso.com\u{202E}", .lookAlikeCharacter),  // right-to-left override
        ("\u{1D41A}lice@contoso.com", .lookAlikeCharacter),  // mathematical bold a
        ("\u{FB01}ona@contoso.com", .lookAlikeCharacter),  // ﬁ ligature
        ("alice@contoso.com\u{0}", .controlCharacter),
        ("alice\u{0}@contoso.com", .controlCharacter),
        ("\u{0}alice@contoso.com", .controlCharacter),
        ("alice@contoso.com ", .surroundingWhitespace),
        ("\talice@contoso.com", .surroundingWhitespace),
        ("alice\u{00A0}@contoso.com", .innerWhitespace),
        ("alice@\u{3000}contoso.com", .innerWhitespace),
        ("alice@contoso.com.", .emptyDomainLabel),
        ("alice@.contoso.com", .emptyDomainLabel),
        ("alice@contoso..com", .emptyDomainLabel),
        (String(repeating: "a", count: 250) + "@contoso.com", .tooLong),
        // UTS #39 "highly restrictive": one part may not mix Latin with Cyrillic or Greek.
        ("\u{0430}lice@contoso.com", .mixedScripts),  // Cyrillic а
        ("alic\u{0435}@contoso.com", .mixedScripts),  // Cyrillic е
        ("alice@cont\u{043E}so.com", .mixedScripts),  // Cyrillic о in the domain
        ("\u{0391}LICE@contoso.com", .mixedScripts),  // Greek Alpha
        ("a\u{0661}ice@contoso.com", .mixedScripts),  // Arabic-Indic one for l
        ("alice@contoso.c\u{0665}m", .mixedScripts),  // Arabic-Indic five for o
        ("a\u{07C0}ice@contoso.com", .mixedScripts),  // NKo digit zero
        ("alice\u{0483}@contoso.com", .mixedScripts),  // a Cyrillic combining mark
    ])
    func imitationsAreRefusedWithAReason(_ upn: String, _ code: AccountIDError.Code) {
        #expect(throws: AccountIDError.self) { try AccountID(upn) }
        do {
            _ = try AccountID(upn)
        } catch {
            #expect(error.code == code, "\(String(reflecting: upn))")
            #expect(error.input.utf8.count <= 300, "the error holds at most a prefix of a huge input")
            #expect(!error.message.isEmpty)
        }
    }

    /// Cherokee folds case to upper case; its letters are neither look-alikes nor a mix of
    /// scripts, in either case, and both cases are one account. Greek final sigma stays a
    /// look-alike of sigma (issue 36's attack found Cherokee refused as an imitation).
    @Test func cherokeeNamesAreAccountsInEitherCase() throws {
        let upper = try AccountID("\u{13A0}\u{13CD}\u{13A6}@contoso.com")  // ᎠᏍᎦ
        let lower = try AccountID("\u{AB70}\u{AB9D}\u{AB76}@contoso.com")  // ꭰꮝꭶ
        #expect(upper == lower && upper.key == lower.key)
        #expect(throws: AccountIDError.self) { try AccountID("\u{13A0}lice@contoso.com") }
        #expect(AccountID.isLookAlike("\u{03C2}"), "final sigma")
        #expect(!AccountID.isLookAlike("\u{03C3}") && !AccountID.isLookAlike("\u{00E9}"))
    }

    /// Exhaustively over all of Unicode: a scalar whose lowercase form is an ASCII character can
    /// stand in for that character in a key (`lowercased()`); put in place of any character of
    /// an allowed name, it must be refused unless it is the plain ASCII upper-case twin. (The
    /// KELVIN SIGN lowercases to `k`: without the look-alike rule `Kate` would be kate.)
    @Test func noScalarThatLowercasesOntoASCIIPassesForAnAllowedName() throws {
        var standIns: [Unicode.Scalar: [Unicode.Scalar]] = [:]
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), !scalar.isASCII else { continue }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            if lower.count == 1, let target = lower.first, target.isASCII { standIns[target, default: []].append(scalar) }
        }
        #expect(standIns["k"] == ["\u{212A}"], "the one non-ASCII scalar lowercasing onto ASCII is the KELVIN SIGN")
        let names = ["alice@contoso.com", "kate@contoso.com", "kirk@contoso.com"]
        let list = AllowedAccounts(try names.map { try AccountID($0) })
        var bypasses: [String] = []
        for name in names {
            let scalars = Array(name.unicodeScalars)
            for (position, original) in scalars.enumerated() {
                let twins = Array(original.properties.uppercaseMapping.unicodeScalars) + (standIns[original] ?? [])
                for twin in twins where twin != original {
                    var candidate = String.UnicodeScalarView(scalars[..<position])
                    candidate.append(twin)
                    candidate.append(contentsOf: scalars[(position + 1)...])
                    guard let account = try? AccountID(String(candidate)), list.allows(account) else { continue }
                    if !twin.isASCII { bypasses.append("U+\(String(twin.value, radix: 16)) for \(original) in \(name)") }
                }
            }
        }
        #expect(bypasses.isEmpty, "look-alikes allowed in place of an allowed name: \(bypasses)")
    }
}
