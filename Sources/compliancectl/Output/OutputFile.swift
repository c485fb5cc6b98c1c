import ArgumentParser
import FileOutput
import Foundation

/// Writing a command's `-o FILE` (see `FileOutput` for the rules: all or nothing, a new file
/// owner-only, a device or FIFO written in place). A file that cannot be written is named with
/// the system's reason ("cannot write /tmp: Is a directory") on stderr and ends the command
/// with 74 (EX_IOERR), not with the usage text.
enum OutputFile {
    /// `shared`: a new file readable as the umask allows (a report for CI), not owner-only.
    static func write(_ bytes: [UInt8], to path: String, shared: Bool = false) throws {
        if let reason = FileOutput.write(bytes, to: path, shared: shared) {
            Terminal.warn("cannot write \(path): \(reason)")
            throw Exit.ioError
        }
    }
}
