import JSON

/// The decoded `client_info` of a token response: base64url JSON `{"uid":…,"utid":…}`.
public struct ClientInfo: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The user's object id.
    public let uid: String
    /// The user's home tenant id.
    public let utid: String

    public init(uid: String, utid: String) {
        self.uid = uid
        self.utid = utid
    }

    /// Decodes the wire form: base64url (padding optional) of a JSON object with non-empty
    /// string `uid` and `utid`; anything else is a failure naming what was wrong.
    public static func decode(_ encoded: String) -> Result<ClientInfo, ClientInfoError> {
        guard let bytes = Base64URL.decode(encoded) else {
            return .failure(ClientInfoError(code: .notBase64URL, reason: "client_info is not base64url"))
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            return .failure(ClientInfoError(code: .notJSON, reason: "client_info is not JSON (\(error.description))"))
        }
        guard case .object = json else {
            return .failure(ClientInfoError(code: .notJSON, reason: "client_info is a JSON \(json.kindName), expected an object"))
        }
        guard let uid = json["uid"]?.stringValue, !uid.isEmpty, let utid = json["utid"]?.stringValue, !utid.isEmpty else {
            return .failure(ClientInfoError(code: .missingField, reason: "client_info lacks a non-empty string uid or utid"))
        }
        return .success(ClientInfo(uid: uid, utid: utid))
    }

    /// `uid.utid`, when both parts are well formed.
    public var homeAccountID: HomeAccountID? { HomeAccountID(objectID: uid, tenantID: utid) }

    public var description: String { "\(uid).\(utid)" }
}

/// Why `client_info` could not be decoded.
public struct ClientInfoError: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    fileprivate enum Base: String, Sendable, Hashable, Codable {
        case notBase64URL, notJSON, missingField
    }

    /// The kind of problem, comparable with the static constants.
    public struct Code: Sendable, Hashable, CustomStringConvertible, Codable {
        fileprivate let base: Base
        /// Characters outside the base64url alphabet, or an impossible length.
        public static let notBase64URL = Code(base: .notBase64URL)
        /// The decoded bytes are not a JSON object.
        public static let notJSON = Code(base: .notJSON)
        /// `uid` or `utid` is missing, empty or not a string.
        public static let missingField = Code(base: .missingField)
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// What was wrong, in words.
    public let reason: String

    init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// What happened and what to do.
    public var message: String {
        "The token service sent an unreadable client_info (\(reason)); it must be base64url JSON with uid and utid. Check the authority's configuration."
    }

    public var description: String { reason }
}
