import Foundation
import ProgramSupport

/// Where `compliancectl` prints for a person: every line goes through
/// ``TerminalText/shown(_:)``, so a flow's name, a file name, a data item's name or a daemon's
/// answer cannot move the cursor, rewrite earlier lines or reorder what is shown. (`--json`
/// output is printed as it is: its encoder escapes control characters.)
enum Terminal {
    /// `text` and a line feed on stdout.
    static func say(_ text: String) {
        Swift.print(TerminalText.shown(text))
    }

    /// `compliancectl: message` on stderr.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("compliancectl: \(TerminalText.shown(message))\n".utf8))
    }

    /// `text` as it is (the caller ends its lines) on stdout, or on stderr when stdout is
    /// kept for JSON.
    static func write(_ text: String, toStandardError: Bool = false) {
        (toStandardError ? FileHandle.standardError : FileHandle.standardOutput).write(Data(TerminalText.shown(text).utf8))
    }
}
