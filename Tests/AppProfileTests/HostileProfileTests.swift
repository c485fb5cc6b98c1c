import Foundation
import Testing
@testable import AppProfile

/// Malformed and hostile app profiles: each is refused with an AppProfileError naming the file
/// and the problem, or read without expanding anything it should not (no entity expansion, no
/// external files); reading never changes the file.
@Suite struct HostileProfileTests {
    static let laughs = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [
          <!ENTITY a "lollollollollollollollollollol">
          <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
          <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
          <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
          <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
          <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
        ]>
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>&f;</string></dict></plist>
        """

    static let externalEntity = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [<!ENTITY leak SYSTEM "file:///etc/passwd">]>
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>&leak;</string></dict></plist>
        """

    static let cases: [(String, [UInt8], AppProfileError.Code?)] = [
        ("empty", [], .notXMLPropertyList),
        ("truncated XML", Array(Fixtures.xmlPlist("<dict><key>IntuneMAMSettings</key><dict><key>ADALClientId</key><str").utf8), .notXMLPropertyList),
        ("binary plist", Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0x51, 0x61, 0x51, 0x62, 0x08, 0x0B, 0x0D] + [UInt8](repeating: 0, count: 32), .notXMLPropertyList),
        ("OpenStep", Array("{ IntuneMAMSettings = { ADALClientId = chatr; }; }".utf8), .notXMLPropertyList),
        ("array root", Array(Fixtures.xmlPlist("<array><string>x</string></array>").utf8), .wrongRootType),
        ("string root", Array(Fixtures.xmlPlist("<string>x</string>").utf8), .wrongRootType),
        ("settings of the wrong type", Array(Fixtures.xmlPlist("<dict><key>IntuneMAMSettings</key><string>x</string></dict>").utf8), .wrongValueType),
        ("invalid UTF-8", Array(Fixtures.xmlPlist("<dict><key>CFBundleIdentifier</key><string>").utf8) + [0xFF, 0xFE] + Array("</string></dict>".utf8), nil),
        ("deep nesting", Array(Fixtures.xmlPlist("<dict><key>x</key>" + String(repeating: "<array>", count: 2000) + String(repeating: "</array>", count: 2000) + "</dict>").utf8), nil),
        ("billion laughs", Array(laughs.utf8), nil),
        ("external entity", Array(externalEntity.utf8), nil),
    ]

    @Test func hostileProfilesAreRefusedOrReadHarmlessly() throws {
        for (name, bytes, code) in Self.cases {
            let path = try Fixtures.file("Info.plist", String(decoding: bytes, as: UTF8.self))
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let profile = try AppProfile.load(infoPlist: path)
                #expect(code == nil, "\(name): read, expected \(String(describing: code))")
                let text = "\(profile.info)"
                #expect(!text.contains("root:"), "\(name): /etc/passwd was read into the profile")
                #expect(text.utf8.count < 100_000, "\(name): an entity was expanded (\(text.utf8.count) bytes)")
                _ = profile.lint()
            } catch {
                if let code { #expect(error.code == code, "\(name): \(error)") }
                #expect(error.file == path && !error.message.isEmpty, "\(name): \(error)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "\(name): reading changed the file")
        }
    }

    /// A path that is not a plist file is named with its reason, in words; a device that never
    /// ends is not read into memory; a FIFO (`--app <(…)`) is read to its end.
    @Test func pathsThatAreNotPlistFilesAreNamedWithTheirReason() throws {
        let directory = URL(fileURLWithPath: try Fixtures.file("Info.plist", "")).deletingLastPathComponent().path
        let cases: [(String, AppProfileError.Code, String)] = [
            ("/dev/null", .notXMLPropertyList, "the file is empty"),
            (directory, .unreadable, "it is a directory"),
            (directory + "/missing-Info.plist", .unreadable, "No such file or directory"),
            ("/dev/zero", .notXMLPropertyList, "more than 16 MiB"),
        ]
        for (path, code, reason) in cases {
            #expect {
                _ = try PlistFile.read(path)
            } throws: { error in
                guard let error = error as? AppProfileError else { return false }
                return error.code == code && error.file == path && error.message.contains(reason) && !error.message.contains("NSCocoaErrorDomain")
            }
        }
        let fifo = directory + "/fifo-Info.plist"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let plist = Fixtures.xmlPlist("<dict><key>CFBundleIdentifier</key><string>com.contoso.fifo</string></dict>")
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data(plist.utf8))
            try? handle?.close()
        }
        writer.start()
        #expect(try PlistFile.read(fifo)["CFBundleIdentifier"] == .string("com.contoso.fifo"))
    }
}
