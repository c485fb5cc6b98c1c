import Foundation
import Testing

/// Checks on the daemon's state directory.
enum FilePermissions {
    /// Every directory under `root` (and `root`) is 0700, every file and socket 0600, all
    /// owned by this process's user.
    static func expectOwnerOnly(_ root: String) throws {
        var paths = [root]
        for case let relative as String in FileManager.default.enumerator(atPath: root) ?? NSEnumerator() {
            paths.append(root + "/" + relative)
        }
        #expect(paths.count > 5, "the state directory holds the store, the socket, the lock and the vault")
        for path in paths {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            let isDirectory = attributes[.type] as? FileAttributeType == .typeDirectory
            #expect(mode == (isDirectory ? 0o700 : 0o600), "\(path): mode \(String(mode, radix: 8))")
            #expect((attributes[.ownerAccountID] as? NSNumber)?.uint32Value == getuid(), "\(path): owner")
        }
    }
}
