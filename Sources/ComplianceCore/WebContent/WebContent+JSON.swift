import JSON

/// The wire form of the identities web decisions name, shared by the control API and
/// `compliancectl webview decide --json`.
extension DataIdentity {
    /// `{"kind": "managed", "account": …}` or `{"kind": "unmanaged"}`.
    public var json: JSONValue {
        if case .managed(let account) = self { return ["kind": "managed", "account": .string(account)] }
        return ["kind": "unmanaged"]
    }
}

extension UIPolicyIdentity {
    /// `{"kind": "managed" | "unmanaged", "account": …}` or `{"kind": "none"}`.
    public var json: JSONValue {
        switch self {
        case .none: ["kind": "none"]
        case .unmanaged(let account): ["kind": "unmanaged", "account": .string(account)]
        case .managed(let account): ["kind": "managed", "account": .string(account)]
        }
    }
}
