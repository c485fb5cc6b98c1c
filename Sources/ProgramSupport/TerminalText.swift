/// Text from outside the program (a flow's name, a file name, a data item's name, a lint
/// message quoting an Info.plist, a daemon's answer) made safe to print for a person.
///
/// A terminal obeys control characters: ESC or CSI (U+009B) starts a sequence that can move
/// the cursor, rewrite earlier lines, change the window title or (on some terminals) answer
/// back; a carriage return overwrites the line so far; bidirectional overrides reorder what
/// is shown ("Trojan Source"). A program printing text it was given would let whoever wrote
/// that text forge or hide the program's own lines. `shown(_:)` writes each such character
/// as a visible escape, `\u{1B}`, the way Swift spells it; line feeds and tabs stay (the
/// program's own layout uses them). JSON output needs none of this: its encoder escapes
/// control characters already.
public enum TerminalText {
    /// `text` with every control character other than line feed and tab, and every
    /// bidirectional embedding, override or isolate, written as `\u{XX}`; unchanged (the same
    /// storage) when it has none.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a terminal would act on `scalar` rather than show it.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false  // line feed, tab: layout
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (CSI U+009B, OSC U+009D)
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional embeddings, overrides, isolates
        default: false
        }
    }
}
