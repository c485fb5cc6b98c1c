import FileOutput
import Foundation

/// Reads and writes XML property lists whose root is a dictionary.
public enum PlistFile {
    /// Reads `path`; refuses anything but an XML plist with a dictionary at its root.
    public static func read(_ path: String) throws(AppProfileError) -> [String: PlistValue] {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw AppProfileError(code: .unreadable, file: path, message: "cannot read the file (\(error.localizedDescription))")
        }
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
