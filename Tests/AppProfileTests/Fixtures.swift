import Foundation
@testable import AppProfile

/// The sample profiles in mocks/fixtures/apps and scratch folders for writing tests.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("mocks/fixtures/apps")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A new empty folder under the temporary directory.
    static func scratchFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("appprofile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Copies fixtures into a scratch folder and returns their new paths.
    static func copies(_ names: String...) throws -> [String] {
        let folder = try scratchFolder()
        return try names.map { name in
            let target = folder.appendingPathComponent(name)
            try FileManager.default.copyItem(atPath: path(name), toPath: target.path)
            return target.path
        }
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Writes `text` to a new scratch file.
    static func file(_ name: String, _ text: String) throws -> String {
        let url = try scratchFolder().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func xmlPlist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">\(body)</plist>
        """
    }
}
