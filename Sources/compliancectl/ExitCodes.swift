import ArgumentParser

/// The exit statuses `compliancectl --help` documents (sysexits-style for the errors).
enum Exit {
    /// The daemon answered but not with success, or a flow failed.
    static let failed = ExitCode(1)
    /// A usage error: bad arguments, caught here or refused by the daemon (64, EX_USAGE).
    static let usage = ExitCode.validationFailure
    /// Bad input data: a flow or profile file.
    static let dataError = ExitCode(65)
    /// The daemon or a mock is unreachable or could not be started.
    static let unavailable = ExitCode(69)
    /// A bug of ours.
    static let software = ExitCode(70)
    /// An output file (`-o`, `profile fix`) could not be written; nothing was left half-written (74, EX_IOERR).
    static let ioError = ExitCode(74)
    /// Ctrl-C (or SIGTERM) cancelled a sign-in a person was completing (128 + SIGINT).
    static let interrupted = ExitCode(130)
}
