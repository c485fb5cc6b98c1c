import JSON

/// The buffer steps (`protect`, `unprotect`, `expectProtectionInfo`) and `expectData`'s
/// `owners`. A step's `data` must name what an earlier `protect` kept (checked with the whole
/// flow, ``keptNamesProblem(_:)``), so a misspelt name cannot pass unchecked.
enum ProtectionFields {
    static let names = ["protect", "unprotect", "expectProtectionInfo"]

    static func action(_ name: String, _ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> StepAction {
        switch name {
        case "protect":
            let identity = try identityField(&fields, "identity", step: name, fail: fail)
            let text = try fields.string("text")
            let keep = try fields.string("as")
            guard !keep.isEmpty else { throw fail("protect: field 'as' (the name later steps use for the result) is empty") }
            var expected = try errorFields(&fields)
            if let encrypted = try fields.optionalBool("encrypted") { expected["encrypted"] = .bool(encrypted) }
            if expected["error"] != nil, expected["encrypted"] != nil { throw fail("protect: give 'error' or 'encrypted', not both") }
            return .protect(identity: identity, text: text, keep: keep, expected: expected)
        case "unprotect":
            let (input, corrupt) = try inputFields(&fields, step: name, fail: fail)
            var expected = try infoFields(&fields, step: name, fail: fail)
            if let text = try fields.optionalString("text") { expected["text"] = .string(text) }
            try requireSome(expected, step: name, known: "text, protected, owner, encrypted, error", fail: fail)
            return .unprotect(input: input, corrupt: corrupt, expected: expected)
        default:  // expectProtectionInfo
            let (input, corrupt) = try inputFields(&fields, step: name, fail: fail)
            let expected = try infoFields(&fields, step: name, fail: fail)
            try requireSome(expected, step: name, known: "protected, owner, encrypted, error", fail: fail)
            return .expectProtectionInfo(input: input, corrupt: corrupt, expected: expected)
        }
    }

    /// `expectData`'s `owners`: {file name: the UPN its header must name}.
    static func owners(_ fields: inout FieldReader, fail: (String) -> FlowError) throws(FlowError) -> [(String, String)] {
        var owners: [(String, String)] = []
        for (file, owner) in try fields.objectField("owners") ?? JSONObject() {
            guard let upn = owner.stringValue, !upn.isEmpty else { throw fail("expectData: field 'owners'.\(file) must be a UPN") }
            owners.append((file, upn))
        }
        return owners
    }

    /// The first `data` that names nothing an earlier `protect` kept, as a reason; nil when none.
    static func keptNamesProblem(_ steps: [FlowStep]) -> (step: Int, reason: String)? {
        var kept: [String] = []
        for step in steps {
            switch step.action {
            case .protect(_, _, let keep, let expected) where expected["error"] == nil:
                kept.append(keep)
            case .unprotect(.kept(let name), _, _), .expectProtectionInfo(.kept(let name), _, _):
                guard kept.contains(name) else {
                    let known = kept.isEmpty ? "no earlier protect step keeps a result" : "kept so far: \(kept.joined(separator: ", "))"
                    return (step.index, "\(step.action.summary): field 'data' names \"\(name)\", which no earlier protect step keeps ('as'); \(known)")
                }
            default:
                break
            }
        }
        return nil
    }

    /// `data` (a kept name) or `input` (literal text), and `corrupt`.
    private static func inputFields(_ fields: inout FieldReader, step: String, fail: (String) -> FlowError) throws(FlowError) -> (BufferInput, Bool) {
        let kept = try fields.optionalString("data")
        let text = try fields.optionalString("input")
        let corrupt = try fields.bool("corrupt", default: false)
        switch (kept, text) {
        case (let name?, nil): return (.kept(name), corrupt)
        case (nil, let text?):
            guard !text.isEmpty || !corrupt else { throw fail("\(step): 'corrupt' needs input to change; 'input' is empty") }
            return (.text(text), corrupt)
        case (.some, .some): throw fail("\(step): give 'data' (a name an earlier protect kept) or 'input' (literal text), not both")
        case (nil, nil): throw fail("\(step): field 'data' (a name an earlier protect kept) or 'input' (literal text) is required")
        }
    }

    /// `protected`, `owner` (a UPN, or null: no user), `encrypted`, and the error fields.
    private static func infoFields(_ fields: inout FieldReader, step: String, fail: (String) -> FlowError) throws(FlowError) -> JSONObject {
        var expected = try errorFields(&fields)
        if let value = try fields.optionalBool("protected") { expected["protected"] = .bool(value) }
        if fields.has("owner") {
            expected["owner"] = try identityField(&fields, "owner", step: step, fail: fail).map { .string($0.lowercased()) } ?? .null
        }
        if let value = try fields.optionalBool("encrypted") { expected["encrypted"] = .bool(value) }
        if expected["error"] != nil, expected.count > (expected["messageContains"] == nil ? 1 : 2) {
            throw fail("\(step): 'error' (the call is refused) cannot be given with what an answer shows")
        }
        return expected
    }

    /// `error` (the code the daemon refuses with) and `messageContains`.
    private static func errorFields(_ fields: inout FieldReader) throws(FlowError) -> JSONObject {
        var expected = JSONObject()
        if let code = try fields.optionalString("error") { expected["error"] = .string(code) }
        if let text = try fields.optionalString("messageContains") { expected["messageContains"] = .string(text) }
        return expected
    }

    /// A UPN field that may be `null` or absent (no user).
    private static func identityField(_ fields: inout FieldReader, _ key: String, step: String, fail: (String) -> FlowError) throws(FlowError) -> String? {
        guard let value = fields.value(key), value != .null else { return nil }
        guard let text = value.stringValue else { throw fail("\(step): field '\(key)' must be a UPN or null (no user), found \(value.kindName)") }
        return text
    }

    private static func requireSome(_ expected: JSONObject, step: String, known: String, fail: (String) -> FlowError) throws(FlowError) {
        if expected.isEmpty || (expected.count == 1 && expected["messageContains"] != nil) {
            throw fail("\(step): name at least one of \(known)")
        }
    }
}
