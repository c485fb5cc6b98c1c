/// An account, identified by its user principal name (UPN), compared case-insensitively.
///
/// Comparison rule: two UPNs are the same account when `upn.lowercased()` of the full
/// strings are equal. `lowercased()` is Swift's Unicode-aware full lowercase mapping
/// (so `ÄDELE@CONTOSO.COM` equals `ädele@contoso.com`); no other folding (no Unicode
/// normalisation form, no trimming) is applied. Equality and hashing use only that key;
/// the home account id is carried along but does not take part in equality.
///
/// Input is validated, never silently repaired: an empty string, leading or trailing
/// white space, any white space or control character inside, and anything but exactly
/// one `@` with text on both sides are refused with an ``AccountIDError``.
public struct AccountID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The UPN exactly as given (original case preserved, for display).
    public let upn: String
    /// The comparison key: `upn.lowercased()`.
    public let key: String
    /// The home account id `oid.tid`, when known (from `client_info` or the token store).
    public var homeAccountID: HomeAccountID?

    /// Validates `upn`; throws instead of normalising.
    public init(_ upn: String, homeAccountID: HomeAccountID? = nil) throws(AccountIDError) {
        try AccountID.validate(upn)
        self.upn = upn
        self.key = upn.lowercased()
        self.homeAccountID = homeAccountID
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

    private static func validate(_ upn: String) throws(AccountIDError) {
        guard !upn.isEmpty else { throw AccountIDError(code: .empty, input: upn) }
        if let first = upn.first, let last = upn.last, first.isWhitespace || last.isWhitespace {
            throw AccountIDError(code: .surroundingWhitespace, input: upn)
        }
        for scalar in upn.unicodeScalars where scalar.properties.generalCategory == .control {
            throw AccountIDError(code: .controlCharacter, input: upn)
        }
        if upn.contains(where: \.isWhitespace) {
            throw AccountIDError(code: .innerWhitespace, input: upn)
        }
        let parts = upn.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw AccountIDError(code: parts.count == 1 ? .missingAt : .multipleAt, input: upn)
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty else { throw AccountIDError(code: .emptyPart, input: upn) }
    }
}

/// The home account id MSAL builds from `client_info`: `uid.utid` (object id, tenant id).
public struct HomeAccountID: Sendable, Hashable, CustomStringConvertible {
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
public struct AccountIDError: Error, Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Base: String, Sendable, Hashable {
        case empty, surroundingWhitespace, controlCharacter, innerWhitespace, missingAt, multipleAt, emptyPart
    }

    /// The kind of problem, comparable with the static constants.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
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
        }
    }

    public var description: String { "invalid account \(String(reflecting: input)): \(message)" }
}
