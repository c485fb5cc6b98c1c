import FileOutput
import Foundation

/// Reads and writes XML property lists whose root is a dictionary.
public enum PlistFile {
    /// The most a property list file may hold: an Info.plist is kilobytes; a path to a device
    /// that never ends (`/dev/zero`) or a wrong file stops here instead of filling memory.
    public static let maximumBytes = 16 << 20

    /// Reads `path`; refuses anything but an XML plist with a dictionary at its root. A
    /// directory, an empty file, one over ``maximumBytes`` or one that cannot be read is named
    /// with its reason (the system's words: "No such file or directory", "Permission denied").
    /// A FIFO or device is read to its end (`--app <(…)` works).
    public static func read(_ path: String) throws(AppProfileError) -> [String: PlistValue] {
        func unreadable(_ reason: String) -> AppProfileError {
            AppProfileError(code: .unreadable, file: path, message: "cannot read the file: \(reason)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw unreadable("it is a directory; name the property list file in it") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
            guard bytes.count <= maximumBytes else {
                throw AppProfileError(code: .notXMLPropertyList, file: path, message: "more than \(maximumBytes >> 20) MiB; not an app's property list")
            }
        }
        guard !bytes.isEmpty else { throw AppProfileError(code: .notXMLPropertyList, file: path, message: "the file is empty; expected an XML property list") }
        return try parse(bytes, file: path)
    }

    /// Parses plist bytes; `file` names them in errors.
    public static func parse(_ bytes: Data, file: String) throws(AppProfileError) -> [String: PlistValue] {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: bytes, options: [], format: &format)
        } catch {
            throw AppProfileError(code: .notXMLPropertyList, file: file, message: "not an XML property list")
        }
        guard format == .xml else {
            let kind = format == .binary ? "a binary" : "an OpenStep"
            throw AppProfileError(code: .notXMLPropertyList, file: file, message: "\(kind) property list; only XML plists are read")
        }
        guard let value = PlistValue(foundation: object), case .dictionary(let root) = value else {
            let found = PlistValue(foundation: object)?.typeName ?? "an unknown type"
            throw AppProfileError(code: .wrongRootType, file: file, message: "the root is \(found), expected a dictionary")
        }
        return root
    }

    /// The XML plist bytes for `root`, keys sorted.
    public static func encode(_ root: [String: PlistValue], file: String) throws(AppProfileError) -> Data {
        do {
            return try PropertyListSerialization.data(
                fromPropertyList: PlistValue.dictionary(root).foundationObject, format: .xml, options: 0)
        } catch {
            throw AppProfileError(code: .unwritable, file: file, message: "cannot encode the property list (\(error.localizedDescription))")
        }
    }

    /// Writes `root` to `path` as every `-o` of ours writes (`FileOutput`): atomically for a
    /// file (which keeps its permissions; a new one is 0600), through a symbolic link, in place
    /// into a device, FIFO or the process's own descriptor (`/dev/stdout`).
    public static func write(_ root: [String: PlistValue], to path: String) throws(AppProfileError) {
        try write([(root, path)])
    }

    /// Writes several plists, each staged before any is replaced (``FileOutput/write(_:)-([(bytes:path:)])``).
    public static func write(_ files: [(root: [String: PlistValue], path: String)]) throws(AppProfileError) {
        var encoded: [(bytes: [UInt8], path: String)] = []
        for (root, path) in files { encoded.append(([UInt8](try encode(root, file: path)), path)) }
        if let failure = FileOutput.write(encoded) {
            throw AppProfileError(code: .unwritable, file: failure.path, message: "cannot write (\(failure.reason))")
        }
    }
}
