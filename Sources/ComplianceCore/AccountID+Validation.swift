extension AccountID {
    /// The longest accepted UPN in UTF-8 bytes (Entra's limit is 113 characters).
    public static let maxBytes = 256

    /// Refuses what ``AccountID`` documents as invalid; never repairs.
    static func validate(_ upn: String) throws(AccountIDError) {
        if validatePrintableASCII(upn) == true { return }
        try validateAnyText(upn)  // an invalid UPN gets its precise error here
    }

    /// The general check, for any text (the reference the ASCII path must agree with).
    static func validateAnyText(_ upn: String) throws(AccountIDError) {
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
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        if labels.contains(where: \.isEmpty) {
            throw AccountIDError(code: .emptyDomainLabel, input: upn)
        }
        if mixesScripts(parts[0]) || labels.contains(where: mixesScripts) {
            throw AccountIDError(code: .mixedScripts, input: upn)
        }
    }

    /// The check of a UPN made of printable ASCII only (0x21…0x7E: no control character, no
    /// whitespace, no look-alike can occur), on its bytes: true when valid, false when not,
    /// nil when the UPN holds another byte (the general check then runs). A store of 10,000
    /// accounts validates every UPN it reads at start, and the Unicode property lookups of
    /// the general check made that a third of the start.
    static func validatePrintableASCII(_ upn: String) -> Bool? {
        var ats = 0
        var length = 0
        var previous: UInt8 = 0
        var domainLabelEmpty = false
        for byte in upn.utf8 {
            guard byte >= 0x21, byte <= 0x7E else { return nil }
            length += 1
            if byte == UInt8(ascii: "@") {
                ats += 1
                if previous == 0 { return false }  // empty local part
            } else if byte == UInt8(ascii: "."), ats == 1, previous == UInt8(ascii: "@") || previous == UInt8(ascii: ".") {
                domainLabelEmpty = true
            }
            previous = byte
        }
        guard length > 0, length <= maxBytes, ats == 1, previous != UInt8(ascii: "@") else { return false }
        return !domainLabelEmpty && previous != UInt8(ascii: ".")
    }

    /// True for a character that only imitates another (``AccountIDError/Code/lookAlikeCharacter``).
    /// ASCII never is; other letters (Cyrillic, Greek, accented Latin) are accepted and stay
    /// distinct accounts.
    ///
    /// A letter is genuine when its lower-case form is stable under NFKC case folding (no
    /// compatibility mapping, no ASCII twin), or, for the scripts whose case folding goes to
    /// upper case (Cherokee: U+AB70 folds to U+13A0), when its upper-case form is stable and
    /// lower-cases to the same letter.
    static func isLookAlike(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        if scalar.properties.generalCategory == .format { return true }
        func stable(_ form: String) -> Bool {
            !form.unicodeScalars.contains { $0.isASCII || $0.properties.changesWhenNFKCCaseFolded }
        }
        let lower = scalar.properties.lowercaseMapping
        if stable(lower) { return false }
        let upper = scalar.properties.uppercaseMapping
        let upperLowers = upper.unicodeScalars.map { $0.properties.lowercaseMapping }.joined()
        return !(stable(upper) && upperLowers == lower)
    }
}
