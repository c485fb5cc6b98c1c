extension AccountID {
    /// The longest accepted UPN in UTF-8 bytes (Entra's limit is 113 characters).
    public static let maxBytes = 256

    /// Refuses what ``AccountID`` documents as invalid; never repairs.
    static func validate(_ upn: String) throws(AccountIDError) {
        guard !upn.isEmpty else { throw AccountIDError(code: .empty, input: upn) }
        guard upn.utf8.count <= maxBytes else { throw AccountIDError(code: .tooLong, input: String(upn.prefix(64)) + "…") }
        if let first = upn.first, let last = upn.last, first.isWhitespace || last.isWhitespace {
            throw AccountIDError(code: .surroundingWhitespace, input: upn)
        }
        for scalar in upn.unicodeScalars where scalar.properties.generalCategory == .control {
            throw AccountIDError(code: .controlCharacter, input: upn)
        }
        if upn.contains(where: \.isWhitespace) {
            throw AccountIDError(code: .innerWhitespace, input: upn)
        }
        if upn.unicodeScalars.contains(where: isLookAlike) {
            throw AccountIDError(code: .lookAlikeCharacter, input: upn)
        }
        let parts = upn.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw AccountIDError(code: parts.count == 1 ? .missingAt : .multipleAt, input: upn)
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty else { throw AccountIDError(code: .emptyPart, input: upn) }
        if parts[1].split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw AccountIDError(code: .emptyDomainLabel, input: upn)
        }
    }

    /// True for a character that only imitates another (``AccountIDError/Code/lookAlikeCharacter``).
    /// ASCII never is; other letters (Cyrillic, Greek, accented Latin) are accepted and stay
    /// distinct accounts.
    static func isLookAlike(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        if scalar.properties.generalCategory == .format { return true }
        return scalar.properties.lowercaseMapping.unicodeScalars.contains { lower in
            lower.isASCII || lower.properties.changesWhenNFKCCaseFolded
        }
    }
}
