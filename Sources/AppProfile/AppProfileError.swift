/// Why an app profile could not be read or written. The file is never changed when reading fails.
///
/// Compare `code` with the static constants (`error.code == .wrongValueType`); `file` names the
/// file, `keyPath` the key (`IntuneMAMSettings.ADALClientId`) when one is at fault.
public struct AppProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Sendable, Hashable {
            case unreadable, notXMLPropertyList, wrongRootType, wrongValueType, unwritable, sameFile
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The file could not be opened or read.
        public static let unreadable = Code(.unreadable)
        /// The file is not an XML property list (binary and OpenStep plists are refused too).
        public static let notXMLPropertyList = Code(.notXMLPropertyList)
        /// The root of the property list is not a dictionary.
        public static let wrongRootType = Code(.wrongRootType)
        /// A key the profile knows holds a value of the wrong type.
        public static let wrongValueType = Code(.wrongValueType)
        /// The fixed profile could not be written.
        public static let unwritable = Code(.unwritable)
        /// Two of the command's paths name one file (the Info.plist given as the entitlements,
        /// `-o` naming the entitlements): a usage error, refused before anything is read.
        public static let sameFile = Code(.sameFile)

        public var description: String {
            switch base {
            case .unreadable: "unreadable"
            case .notXMLPropertyList: "notXMLPropertyList"
            case .wrongRootType: "wrongRootType"
            case .wrongValueType: "wrongValueType"
            case .unwritable: "unwritable"
            case .sameFile: "sameFile"
            }
        }
    }

    public let code: Code
    /// The file's path as given.
    public let file: String
    /// The key at fault, when there is one.
    public let keyPath: String?
    /// What is wrong, for a person.
    public let message: String

    public init(code: Code, file: String, keyPath: String? = nil, message: String) {
        self.code = code
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    /// `file: keyPath: message`.
    public var description: String {
        [file, keyPath, message].compactMap { $0 }.joined(separator: ": ")
    }
}
