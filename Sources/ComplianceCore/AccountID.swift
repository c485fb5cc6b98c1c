/// An account, identified by its user principal name (UPN), compared case-insensitively.
///
/// Spelling: the UPN is stored in Unicode Normalization Form C (NFC), so canonically
/// equivalent spellings (`josé` with U+00E9, or `e` + U+0301) are one account with one key:
/// the same bytes in memory, in SQL and in vault directory names.
///
/// Comparison rule: two UPNs are the same account when `upn.lowercased()` of the full
/// strings (then NFC) are equal. `lowercased()` is Swift's Unicode-aware full lowercase mapping
/// (so `ÄDELE@CONTOSO.COM` equals `ädele@contoso.com`); no other folding (no compatibility
/// mapping, no trimming, no script folding) is applied, so a look-alike from another
/// script (Cyrillic `а` in `аlice`) is a different account than its Latin twin. Equality
/// and hashing use only that key; the home account id is carried along but does not take
/// part in equality.
///
/// Input is validated, never silently repaired: an empty string, leading or trailing
/// white space, any white space or control character inside, anything but exactly one `@`
/// with text on both sides, more than ``maxBytes`` bytes, a domain with an empty label (`contoso.com.`, `a..b`),
/// characters that only imitate others (see ``AccountIDError/Code/lookAlikeCharacter``), and a
/// part that mixes scripts (``AccountIDError/Code/mixedScripts``) are refused with an ``AccountIDError``.
public struct AccountID: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The UPN as given, in NFC (original case preserved, for display).
    public let upn: String
    /// The comparison key: `upn.lowercased()` in NFC.
    public let key: String
    /// The home account id `oid.tid`, when known (from `client_info` or the token store).
    public var homeAccountID: HomeAccountID?

    /// Validates `upn`; throws instead of normalising.
    public init(_ upn: String, homeAccountID: HomeAccountID? = nil) throws(AccountIDError) {
        try AccountID.validate(upn)
        self.upn = Self.nfc(upn)
        self.key = Self.nfc(upn.lowercased())
        self.homeAccountID = homeAccountID
    }

    /// `text` in Unicode Normalization Form C. The standard library's own normaliser (the one
    /// `String` equality and hashing use) does it; ComplianceCore does not import Foundation.
    static func nfc(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }  // ASCII is NFC
        return String(decoding: Array(text._nfcCodeUnits), as: UTF8.self)
    }

    /// This account with `homeAccountID` filled in.
    public func with(homeAccountID: HomeAccountID?) -> AccountID {
        var copy = self
        copy.homeAccountID = homeAccountID
        return copy
    }

    public static func == (lhs: AccountID, rhs: AccountID) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
    public static func < (lhs: AccountID, rhs: AccountID) -> Bool { lhs.key < rhs.key }

    public var description: String { upn }
}

/// The home account id MSAL builds from `client_info`: `uid.utid` (object id, tenant id).
public struct HomeAccountID: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The user's object id (`oid`, `uid` in client_info).
    public let objectID: String
    /// The home tenant id (`tid`, `utid` in client_info).
    public let tenantID: String

    /// Both parts must be non-empty and free of `.`, white space and control characters.
    public init?(objectID: String, tenantID: String) {
        guard HomeAccountID.isValidPart(objectID), HomeAccountID.isValidPart(tenantID) else { return nil }
        self.objectID = objectID
        self.tenantID = tenantID
    }

    /// Parses `oid.tid`.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init(objectID: String(parts[0]), tenantID: String(parts[1]))
    }

    public var description: String { "\(objectID).\(tenantID)" }

    private static func isValidPart(_ part: String) -> Bool {
        !part.isEmpty && !part.contains(".")
            && !part.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }
}

/// Why a string is not an acceptable account id.
public struct AccountIDError: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    fileprivate enum Base: String, Sendable, Hashable, Codable {
        case empty, surroundingWhitespace, controlCharacter, innerWhitespace, missingAt, multipleAt, emptyPart
        case lookAlikeCharacter, emptyDomainLabel, tooLong, mixedScripts
    }

    /// The kind of problem, comparable with the static constants.
    public struct Code: Sendable, Hashable, CustomStringConvertible, Codable {
        fileprivate let base: Base
        /// The input is the empty string.
        public static let empty = Code(base: .empty)
        /// White space before or after the name.
        public static let surroundingWhitespace = Code(base: .surroundingWhitespace)
        /// A control character (Unicode category Cc) anywhere.
        public static let controlCharacter = Code(base: .controlCharacter)
        /// White space inside the name.
        public static let innerWhitespace = Code(base: .innerWhitespace)
        /// No `@`.
        public static let missingAt = Code(base: .missingAt)
        /// More than one `@`.
        public static let multipleAt = Code(base: .multipleAt)
        /// Nothing before or after the `@`.
        public static let emptyPart = Code(base: .emptyPart)
        /// A character that only imitates another: one whose lowercase form is ASCII although
        /// it is not (KELVIN SIGN `K`, `İ`), or one that NFKC case folding changes after
        /// lowercasing — compatibility forms (fullwidth `ａ` and `＠`, ligatures, mathematical
        /// letters), `ß`/`ς`, and invisible format characters (zero-width space, soft hyphen,
        /// bidi controls).
        public static let lookAlikeCharacter = Code(base: .lookAlikeCharacter)
        /// The domain starts or ends with a dot or has two dots in a row (`contoso.com.`).
        public static let emptyDomainLabel = Code(base: .emptyDomainLabel)
        /// More than ``AccountID/maxBytes`` UTF-8 bytes (Entra allows 113 characters).
        public static let tooLong = Code(base: .tooLong)
        /// A part of the name (before the `@`, or a domain label) mixes letters of scripts
        /// that UTS #39's "highly restrictive" level keeps apart: a Cyrillic `а` among Latin
        /// letters (`аlice`) imitates `alice`.
        public static let mixedScripts = Code(base: .mixedScripts)
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The refused input (an account name, not a secret).
    public let input: String

    init(code: Code, input: String) {
        self.code = code
        self.input = input
    }

    /// What was wrong and what to do about it.
    public var message: String {
        switch code.base {
        case .empty: "The account name is empty; enter a user principal name such as user@contoso.com."
        case .surroundingWhitespace: "The account name starts or ends with white space; remove it (names are not trimmed automatically)."
        case .controlCharacter: "The account name contains a control character; enter the user principal name as plain text."
        case .innerWhitespace: "The account name contains white space; a user principal name has none."
        case .missingAt: "The account name has no '@'; enter a user principal name such as user@contoso.com."
        case .multipleAt: "The account name has more than one '@'; a user principal name has exactly one."
        case .emptyPart: "The account name has nothing before or after the '@'; enter a full user principal name."
        case .lookAlikeCharacter:
            "The account name contains a character that imitates another (fullwidth, compatibility or invisible); type the user principal name with ordinary characters."
        case .emptyDomainLabel: "The account's domain starts or ends with a dot or has two dots in a row; enter it as contoso.com."
        case .tooLong: "The account name is longer than \(AccountID.maxBytes) bytes; a user principal name is far shorter."
        case .mixedScripts:
            "The account name mixes letters of different scripts in one part (such as a Cyrillic 'а' among Latin letters), which imitates another name; type the user principal name in one script."
        }
    }

    public var description: String { "invalid account \(String(reflecting: input)): \(message)" }
}
