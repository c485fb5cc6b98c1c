/// UTS #39's "highly restrictive" restriction level, applied to each part of a UPN (the local
/// part and each domain label): the letters of one part come from one script, or from Latin
/// with Han and Hiragana/Katakana, Han and Bopomofo, or Han and Hangul. So `аlice` (a Cyrillic
/// `а` among Latin letters) is refused, while `иван@contoso.com` (each part of one script) and
/// `josé@contoso.com` are accepted. Scripts are known by block (the Unicode data files'
/// `Scripts.txt` for the letters a name holds); ASCII digits, punctuation and the general
/// combining marks are Common or Inherited and mix with any script; other digits and marks
/// belong to their script (`a١ice` mixes Latin and Arabic).
extension AccountID {
    enum Script: Sendable, Hashable, Codable {
        case latin, greek, cyrillic, armenian, hebrew, arabic, devanagari, thai, georgian, cherokee, hangul, hiragana, katakana, bopomofo, han, other(UInt32)
    }

    /// The script of a letter, of a digit other than ASCII's (Arabic-Indic `١` is Arabic), or
    /// of a combining mark of one script (Cyrillic `҃`); nil for Common and Inherited
    /// characters (ASCII digits, punctuation, symbols, the general combining marks).
    static func script(of scalar: Unicode.Scalar) -> Script? {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: break
        case .decimalNumber, .otherNumber, .letterNumber:
            if scalar.isASCII { return nil }
        case .nonspacingMark, .spacingMark, .enclosingMark:
            switch value {
            case 0x300...0x36F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return nil  // Inherited
            default: break
            }
        default: return nil  // Common
        }
        switch value {
        case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F: return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        case 0x530...0x58F: return .armenian
        case 0x590...0x5FF: return .hebrew
        case 0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF: return .arabic
        case 0x900...0x97F: return .devanagari
        case 0xE00...0xE7F: return .thai
        case 0x10A0...0x10FF, 0x2D00...0x2D2F: return .georgian
        case 0x13A0...0x13FF, 0xAB70...0xABBF: return .cherokee  // Cherokee and its lower-case supplement
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
        case 0x3040...0x309F: return .hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF: return .katakana
        case 0x3100...0x312F, 0x31A0...0x31BF: return .bopomofo
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return .han
        default: return .other(value >> 7)  // one block of 128 stands for an unlisted script
        }
    }

    /// The script sets UTS #39 allows together at "highly restrictive".
    private static let allowedMixtures: [Set<Script>] = [
        [.latin, .han, .hiragana, .katakana], [.latin, .han, .bopomofo], [.latin, .han, .hangul],
    ]

    /// True when one part (the local part or a domain label) mixes scripts beyond what
    /// "highly restrictive" allows.
    static func mixesScripts(_ part: Substring) -> Bool {
        var scripts: Set<Script> = []
        for scalar in part.unicodeScalars {
            if let script = script(of: scalar) { scripts.insert(script) }
        }
        guard scripts.count > 1 else { return false }
        return !allowedMixtures.contains { scripts.isSubset(of: $0) }
    }
}
