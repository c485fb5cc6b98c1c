import AppProfile
import Foundation

/// libFuzzer target for the app profile reader: any bytes read as an Info.plist must give a
/// profile or an ``AppProfileError``, never a crash; a profile must lint, and fixing it must be
/// idempotent and survive a write/read round trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    guard let info = try? PlistFile.parse(bytes, file: "fuzz-Info.plist") else { return 0 }
    guard let profile = try? AppProfile(info: info, entitlements: info) else { return 0 }
    _ = profile.lint()
    _ = try? profile.appBoundSettings()
    _ = profile.webViewHierarchy()
    let fixed = profile.fixed()
    guard fixed.fixed() == fixed else { fatalError("fixing a fixed profile changed it again") }
    guard let encoded = try? PlistFile.encode(fixed.info, file: "fuzz-Info.plist") else { return 0 }
    guard let reread = try? PlistFile.parse(encoded, file: "fuzz-Info.plist") else {
        fatalError("a fixed profile does not read back: \(String(decoding: encoded, as: UTF8.self))")
    }
    guard reread == fixed.info else { fatalError("a fixed profile changed in a write/read round trip") }
    return 0
}
