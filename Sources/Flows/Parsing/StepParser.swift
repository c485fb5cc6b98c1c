import JSON

/// Parses one step: `{"do": NAME, …fields, "expect"?: {…}, "note"?: "…"}`.
enum StepParser {
    /// Every step name, for the "unknown step" message and flows/README.md.
    static let names = [
        "signIn", "token", "remediate", "deregister", "putData", "removeData", "readData", "setUIIdentity", "setProcessIdentity", "overrideSettings",
        "sdkEnrolls", "advanceClock", "appRestarted", "restartDaemon", "crashAfter", "failStorage",
        "targetCA", "assignPolicy", "setAllowedAccounts", "changePolicy", "queueWipe", "resetCompliance", "revokeRefreshTokens",
        "injectFault", "clearFaults", "admin",
        "expectAccount", "expectData", "expectEvents", "expectEnrollmentStatuses", "expectRequests", "expectDataProtection", "expectAppConfig", "expectApp",
        "expectIdentity", "expectSettings",
    ] + ProtectionFields.names + WebFields.names + DecisionFields.names

    /// Steps whose answer an `expect` object may check.
    static let expectable: Set<String> = [
        "signIn", "token", "remediate", "deregister", "putData", "removeData", "readData", "setUIIdentity", "setProcessIdentity", "overrideSettings",
        "sdkEnrolls", "advanceClock", "appRestarted",
    ]

    static func parse(_ value: JSONValue, index: Int, file: String) throws(FlowError) -> FlowStep {
        let fail = { (reason: String) in FlowError(file: file, step: index, reason: reason) }
        guard let name = value["do"]?.stringValue else {
            throw fail(value.objectValue == nil ? "a step must be a JSON object, found \(value.kindName)" : "field 'do' (the step's name) is required")
        }
        guard names.contains(name) else {
            throw fail("unknown step '\(name)' (\(ClosestName.hint(name, among: names))known: \(names.joined(separator: ", ")))")
        }
        var fields = try FieldReader(value, place: name, fail: fail)
        _ = fields.value("do")
        let note = try fields.optionalString("note")
        var expect = StepExpectation()
        if expectable.contains(name), let expectValue = fields.value("expect") {
            expect = try ExpectationParser.parse(expectValue, step: name, fail: fail)
        }
        let action = try StepFields.action(name, &fields, fail: fail)
        try fields.finish()
        return FlowStep(index: index, action: action, expect: expect, note: note)
    }
}
