/// Smart lockout, as Entra applies it (issue 41 point 9): after `threshold` wrong passwords in
/// a row an account is locked for `durationSeconds` (AADSTS50053, even with the right
/// password); after `deviceCodeGuesses` wrong user codes in a row the device page takes no
/// code for the same time. Entra's defaults: 10 and 60 s. A threshold or guess count of 0
/// turns that rule off (tests that need to fail forever).
public struct LockoutPolicy: Sendable, Hashable {
    public var threshold: Int = 10
    public var durationSeconds: Int = 60
    public var deviceCodeGuesses: Int = 5

    public init(threshold: Int = 10, durationSeconds: Int = 60, deviceCodeGuesses: Int = 5) {
        self.threshold = threshold
        self.durationSeconds = durationSeconds
        self.deviceCodeGuesses = deviceCodeGuesses
    }

    /// Why the values cannot be used, or nil.
    var problem: String? {
        guard (0...1000).contains(threshold), (0...1000).contains(deviceCodeGuesses) else {
            return "'threshold' and 'deviceCodeGuesses' must be 0 (off) to 1000"
        }
        guard (1...86_400).contains(durationSeconds) else { return "'durationSeconds' must be 1 to 86400" }
        return nil
    }
}
