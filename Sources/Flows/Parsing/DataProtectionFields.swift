import ComplianceCore
import JSON

/// `expectDataProtection`: `account` (the identity; `null` or absent: none), `owner`, `scheme`,
/// `knownManagedAppScheme`, and what the answer must show: `managed`, `saveTo` and `openFrom`
/// ({location: allowed}), `isFileEncryptionRequired`, `notificationPolicy`,
/// `isAppSharingAllowed`, `canReceiveSharedItem`, `isURLAllowed`. Location and policy names are
/// checked when the flow is read, so a misspelt one cannot pass unchecked.
extension CheckFields {
    static let dataProtectionBooleans = ["managed", "isFileEncryptionRequired", "isAppSharingAllowed", "canReceiveSharedItem", "isURLAllowed"]

    static func dataProtection(_ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction {
        let step = "expectDataProtection"
        let identity = try fields.optionalString("account")
        let owner = try fields.optionalString("owner")
        let scheme = try fields.optionalString("scheme")
        let knownScheme = try fields.optionalBool("knownManagedAppScheme") ?? false
        var expected = JSONObject()
        for key in dataProtectionBooleans {
            if let value = try fields.optionalBool(key) { expected[key] = .bool(value) }
        }
        if expected["isURLAllowed"] != nil, scheme == nil { throw fail("\(step): 'isURLAllowed' needs 'scheme'") }
        if let policy = try fields.optionalString("notificationPolicy") {
            guard NotificationPolicy(rawValue: policy) != nil else {
                throw fail("\(step): 'notificationPolicy' must be one of \(NotificationPolicy.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(policy)\"")
            }
            expected["notificationPolicy"] = .string(policy)
        }
        for (key, names) in [("saveTo", SaveLocation.allCases.map(\.rawValue)), ("openFrom", OpenLocation.allCases.map(\.rawValue))] {
            guard let object = try fields.objectField(key) else { continue }
            var locations = JSONObject()
            for (name, allowed) in object {
                guard names.contains(name) else {
                    throw fail("\(step): '\(key)' names an unknown location \"\(name)\" (known: \(names.joined(separator: ", ")))")
                }
                guard let allowed = allowed.boolValue else { throw fail("\(step): '\(key)'.\(name) must be true or false") }
                locations[name] = .bool(allowed)
            }
            guard !locations.isEmpty else { throw fail("\(step): '\(key)' is empty") }
            expected[key] = .object(locations)
        }
        guard !expected.isEmpty else {
            throw fail("\(step): name at least one of managed, saveTo, openFrom, notificationPolicy, \(dataProtectionBooleans.dropFirst().joined(separator: ", "))")
        }
        return .expectDataProtection(identity: identity, owner: owner, scheme: scheme, knownManagedAppScheme: knownScheme, expected: expected)
    }
}
