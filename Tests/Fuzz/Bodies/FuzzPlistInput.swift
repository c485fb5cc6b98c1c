import AppProfile
import Foundation

/// One fuzz input for the app profile reader: any bytes read as an Info.plist must give a
/// profile or an ``AppProfileError``, never a crash; a profile must lint, and fixing it must be
/// idempotent and survive a write/read round trip. Run by the libFuzzer target
/// (Targets/FuzzPlist.swift) and replayed over the corpus by the test command (Replay/).
func fuzzPlistInput(_ bytes: [UInt8]) {
    guard let info = try? PlistFile.parse(Data(bytes), file: "fuzz-Info.plist") else { return }
    guard let profile = try? AppProfile(info: info, entitlements: info) else { return }
    _ = profile.lint()
    _ = try? profile.appBoundSettings()
    _ = profile.webViewHierarchy()
    let fixed = profile.fixed()
    guard fixed.fixed() == fixed else { fatalError("fixing a fixed profile changed it again") }
    guard let encoded = try? PlistFile.encode(fixed.info, file: "fuzz-Info.plist") else { return }
    guard let reread = try? PlistFile.parse(encoded, file: "fuzz-Info.plist") else {
        fatalError("a fixed profile does not read back: \(String(decoding: encoded, as: UTF8.self))")
    }
    guard reread == fixed.info else { fatalError("a fixed profile changed in a write/read round trip") }
}
