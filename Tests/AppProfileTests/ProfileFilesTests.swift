import Foundation
import Testing
@testable import AppProfile

@Suite struct ProfileFilesTests {
    @Test func fixInPlaceRewritesBothFilesAndSecondRunWritesNothing() throws {
        let paths = try Fixtures.copies("broken-Info.plist", "broken.entitlements")
        let report = try ProfileCommands.fix(infoPlist: paths[0], entitlements: paths[1])
        #expect(report.written == paths)
        #expect(Set(report.fixed.map(\.kind)) == Set(ProfileProblem.Kind.allCases.filter { $0.isFixable }))
        #expect(report.remaining.errorCount == 7)
        #expect(report.humanLines.contains("wrote \(paths[0])"))
        let reread = try AppProfile.load(infoPlist: paths[0], entitlements: paths[1])
        #expect(reread.lint() == report.remaining.problems)
        // No temporary file is left beside the targets.
        let folder = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["broken-Info.plist", "broken.entitlements"])
        let before = try Fixtures.bytes(paths[0])
        let again = try ProfileCommands.fix(infoPlist: paths[0], entitlements: paths[1])
        #expect(again.written == [])
        #expect(again.fixed == [])
        #expect(try Fixtures.bytes(paths[0]) == before)
    }

    @Test func fixToAnOutputLeavesTheInputAlone() throws {
        let paths = try Fixtures.copies("broken-Info.plist")
        let original = try Fixtures.bytes(paths[0])
        let output = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().appendingPathComponent("out.plist").path
        let report = try ProfileCommands.fix(infoPlist: paths[0], output: output)
        #expect(report.written == [output])
        #expect(try Fixtures.bytes(paths[0]) == original)
        let written = try AppProfile.load(infoPlist: output)
        #expect(written == (try AppProfile.load(infoPlist: paths[0])).fixed())
        #expect(written.info["IntuneMAMSettings"]?.dictionaryValue?["MAMPolicyRequired"] == .bool(true))
    }

    /// A list whose twins take it past iOS's 50: fix adds the twins (fixed) and the length
    /// warning stays (remaining), never under "fixed" though its words change.
    @Test func fixNeverReportsAProblemItCannotRepairAsFixed() throws {
        let chatr = try AppProfile.load(infoPlist: Fixtures.path("chatr-Info.plist"))
        let queries = chatr.queriesSchemes
        let own = (1...(51 - queries.count)).map { "app\($0)" }
        let path = try Fixtures.file("Info.plist", "")
        try PlistFile.write(chatr.info.merging(["LSApplicationQueriesSchemes": .strings(queries + own)]) { $1 }, to: path)
        let report = try ProfileCommands.fix(infoPlist: path)
        #expect(report.fixed.contains { $0.kind == .querySchemeTwinMissing })
        #expect(!report.fixed.contains { !$0.kind.isFixable }, "\(report.fixed.map(\.kind))")
        #expect(report.remaining.problems.map(\.kind).contains(.querySchemesOverLimit))
    }

    @Test func malformedFilesAreNamedAndLeftUntouched() throws {
        let cases: [(text: String, code: AppProfileError.Code, keyPath: String?)] = [
            ("this is not a plist <", .notXMLPropertyList, nil),
            ("{ \"a\" = 1; }", .notXMLPropertyList, nil),
            (Fixtures.xmlPlist("<array><string>x</string></array>"), .wrongRootType, nil),
            (Fixtures.xmlPlist("<dict><key>IntuneMAMSettings</key><string>x</string></dict>"), .wrongValueType, "IntuneMAMSettings"),
            (Fixtures.xmlPlist("<dict><key>IntuneMAMSettings</key><dict><key>MAMPolicyRequired</key><string>YES</string></dict></dict>"),
             .wrongValueType, "IntuneMAMSettings.MAMPolicyRequired"),
            (Fixtures.xmlPlist("<dict><key>LSApplicationQueriesSchemes</key><array><string>a</string><integer>1</integer></array></dict>"),
             .wrongValueType, "LSApplicationQueriesSchemes"),
        ]
        for (text, code, keyPath) in cases {
            let path = try Fixtures.file("Info.plist", text)
            #expect { try ProfileCommands.fix(infoPlist: path) } throws: { error in
                guard let error = error as? AppProfileError else { return false }
                return error.code == code && error.file == path && error.keyPath == keyPath && error.description.hasPrefix(path + ": ")
            }
            #expect(try Fixtures.bytes(path) == Data(text.utf8))
        }
    }

    @Test func wrongTypesNameTheFileAndKey() throws {
        let path = Fixtures.path("wrongtype-Info.plist")
        #expect(throws: AppProfileError(code: .wrongValueType, file: path, keyPath: "IntuneMAMSettings.ADALClientId",
            message: "expected a string, found integer")) { try AppProfile.load(infoPlist: path) }
        // The entitlements file is named when it is at fault, and the Info.plist is not written.
        let paths = try Fixtures.copies("broken-Info.plist")
        let before = try Fixtures.bytes(paths[0])
        let entitlements = try Fixtures.file("app.entitlements",
            Fixtures.xmlPlist("<dict><key>keychain-access-groups</key><string>com.microsoft.intune.mam</string></dict>"))
        #expect(throws: AppProfileError(code: .wrongValueType, file: entitlements, keyPath: "keychain-access-groups",
            message: "expected an array of strings, found string")) { try ProfileCommands.fix(infoPlist: paths[0], entitlements: entitlements) }
        #expect(try Fixtures.bytes(paths[0]) == before)
    }

    @Test func binaryPlistsAreRefused() throws {
        let binary = try PropertyListSerialization.data(fromPropertyList: ["a": "b"], format: .binary, options: 0)
        let url = try Fixtures.scratchFolder().appendingPathComponent("Info.plist")
        try binary.write(to: url)
        #expect(throws: AppProfileError(code: .notXMLPropertyList, file: url.path,
            message: "a binary property list; only XML plists are read")) { try AppProfile.load(infoPlist: url.path) }
        #expect(throws: AppProfileError.self) { try AppProfile.load(infoPlist: url.path + ".missing") }
    }
}
