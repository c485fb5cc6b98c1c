import FileOutput
import Foundation
import Testing
@testable import AppProfile

/// `profile fix -o` (and every other `-o`) writes a file without replacing what is not a file:
/// a symbolic link stays a link, a device or FIFO is written in place, a new file is 0600 and an
/// existing file keeps its mode.
@Suite struct FileOutputTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "fileoutput-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : 0
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetKeepsItsMode() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Fixtures.copies("broken-Info.plist")[0]
        let target = dir + "/real.plist"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o640)
        let link = dir + "/Info.plist"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        _ = try ProfileCommands.fix(infoPlist: input, output: link)
        #expect(mode(link) & S_IFMT == S_IFLNK)
        #expect(mode(target) & S_IFMT == S_IFREG)
        #expect(mode(target) & 0o7777 == 0o640)
        #expect(try AppProfile.load(infoPlist: target) == (try AppProfile.load(infoPlist: input)).fixed())
    }

    @Test func aNewFileIsOwnerOnly() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Fixtures.copies("broken-Info.plist")[0]
        _ = try ProfileCommands.fix(infoPlist: input, output: dir + "/out.plist")
        #expect(mode(dir + "/out.plist") & 0o7777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.plist"])
    }

    @Test func aDeviceIsWrittenInPlaceNotReplaced() throws {
        let input = try Fixtures.copies("broken-Info.plist")[0]
        let report = try ProfileCommands.fix(infoPlist: input, output: "/dev/null")
        #expect(report.written == ["/dev/null"])
        #expect(mode("/dev/null") & S_IFMT == S_IFCHR)
    }

    @Test func aFIFOIsWrittenInPlace() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let output = Pipe()
        reader.standardOutput = output
        try reader.run()
        #expect(FileOutput.write(Array("through the pipe".utf8), to: fifo) == nil)
        let read = output.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(String(decoding: read, as: UTF8.self) == "through the pipe")
        #expect(mode(fifo) & S_IFMT == S_IFIFO)
    }

    @Test func whatCannotBeWrittenIsRefusedWithItsReason() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dangling = dir + "/dangling"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir + "/missing/x")
        #expect(FileOutput.write([1], to: dangling)?.hasPrefix("a symbolic link to a missing file") == true)
        #expect(mode(dangling) & S_IFMT == S_IFLNK)
        #expect(FileOutput.write([1], to: dir) == "Is a directory")
        #expect(FileOutput.write([1], to: "") == "the path is empty")
        #expect(FileOutput.write([1], to: dir + "/no/such/folder/file") == "No such file or directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["dangling"])
    }

    /// `/dev/stdout`, `/dev/fd/N`: the process's own descriptor is written, so an appended log
    /// stays appended (renaming over the resolved file lost its earlier lines).
    @Test func theProcesssOwnDescriptorIsWrittenNotReplaced() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/log.txt"
        try Data("earlier line\n".utf8).write(to: URL(fileURLWithPath: log))
        let descriptor = open(log, O_WRONLY | O_APPEND)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(FileOutput.write(Array("written\n".utf8), to: "/dev/fd/\(descriptor)") == nil)
        #expect(FileOutput.write(Array("again\n".utf8), to: "/proc/self/fd/\(descriptor)") == nil)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "earlier line\nwritten\nagain\n")
    }

    /// Several files are staged before any is replaced: one that cannot be written leaves the
    /// others as they were.
    @Test func oneFileThatCannotBeWrittenLeavesTheOthers() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("first".utf8).write(to: URL(fileURLWithPath: dir + "/a"))
        let failure = FileOutput.write([(bytes: Array("new".utf8), path: dir + "/a"), (bytes: Array("new".utf8), path: dir + "/missing/b")])
        #expect(failure?.path == dir + "/missing/b" && failure?.reason == "No such file or directory")
        #expect(try String(contentsOfFile: dir + "/a", encoding: .utf8) == "first")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a"], "no temporary file is left")
    }

    /// `profile fix -o E --entitlements E` would write the plist over the entitlements.
    @Test func anOutputThatIsTheEntitlementsFileIsRefused() throws {
        let paths = try Fixtures.copies("broken-Info.plist", "broken.entitlements")
        let before = try Fixtures.bytes(paths[1])
        #expect(throws: AppProfileError.self) { try ProfileCommands.fix(infoPlist: paths[0], entitlements: paths[1], output: paths[1]) }
        #expect(try Fixtures.bytes(paths[1]) == before)
    }

    /// `profile fix P --entitlements P` wrote the fixed entitlements over the fixed plist.
    @Test func anEntitlementsFileThatIsTheInfoPlistIsRefused() throws {
        let paths = try Fixtures.copies("broken-Info.plist")
        let before = try Fixtures.bytes(paths[0])
        #expect(throws: AppProfileError.self) { try ProfileCommands.fix(infoPlist: paths[0], entitlements: paths[0]) }
        #expect(throws: AppProfileError.self) { try ProfileCommands.lint(infoPlist: paths[0], entitlements: paths[0]) }
        #expect(try Fixtures.bytes(paths[0]) == before)
    }

    /// Another user's file keeps its owner when we may give it (root), else loses set-id bits:
    /// a replacement is never a set-id file of ours.
    @Test func anotherUsersFileKeepsItsOwnerOrLosesSetID() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/tool"
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o4755)
        guard geteuid() == 0 else {
            #expect(FileOutput.write([1], to: file) == nil)
            #expect(mode(file) & 0o7777 == 0o4755, "our own file keeps its mode")
            return
        }
        #expect(chown(file, 1000, 1000) == 0)
        chmod(file, 0o4755)
        #expect(FileOutput.write([1], to: file) == nil)
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_uid == 1000 && info.st_gid == 1000, "the owner is kept")
        #expect(info.st_mode & 0o7777 == 0o4755)
    }
}
