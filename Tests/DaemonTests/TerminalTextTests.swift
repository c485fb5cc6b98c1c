import ProgramSupport
import Testing

/// Text printed for a person cannot drive the terminal: control characters and bidirectional
/// overrides are shown as escapes, the rest (line feeds, tabs, accents, emoji) as it is.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownAsEscapes() {
        #expect(TerminalText.shown("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TerminalText.shown("title\u{1B}]0;owned\u{07}") == "title\\u{1B}]0;owned\\u{7}")
        #expect(TerminalText.shown("over\rwrite") == "over\\u{D}write")
        #expect(TerminalText.shown("csi\u{9B}31m") == "csi\\u{9B}31m")
        #expect(TerminalText.shown("nul\u{0}del\u{7F}") == "nul\\u{0}del\\u{7F}")
        #expect(TerminalText.shown("file\u{202E}txt.exe") == "file\\u{202E}txt.exe")
        #expect(TerminalText.shown("\u{2066}isolate\u{2069}") == "\\u{2066}isolate\\u{2069}")
    }

    @Test func layoutAndOrdinaryTextStayAsTheyAre() {
        for text in ["", "plain", "two\nlines\tand a tab", "josé@contoso.com", "✔ passed", "日本語", "👍🏽", "e\u{301}"] {
            #expect(TerminalText.shown(text) == text)
        }
    }
}
