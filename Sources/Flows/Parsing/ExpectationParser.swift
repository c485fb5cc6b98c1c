import JSON

/// Parses a step's `expect` object (what its answer must show).
enum ExpectationParser {
    static func parse(_ value: JSONValue, step: String, fail: @escaping (String) -> FlowError) throws(FlowError) -> StepExpectation {
        var fields = try FieldReader(value, place: "\(step): expect", fail: fail)
        var expect = StepExpectation()
        if let status = fields.value("status") {
            guard let code = StatusNames.compliance(status) else {
                throw fail("\(step): expect: field 'status': \(status) is not a compliance status (\(StatusNames.complianceNames))")
            }
            expect.status = .int(Int64(code))
        }
        expect.signedIn = try fields.optionalBool("signedIn")
        if let status = fields.value("enrollmentStatus") {
            if status == .null {
                expect.enrollmentStatus = .null
            } else {
                guard let code = StatusNames.enrollment(status) else { throw fail("\(step): expect: field 'enrollmentStatus': \(status) is not an enrollment status") }
                expect.enrollmentStatus = .int(Int64(code))
            }
        }
        expect.remediated = try fields.optionalBool("remediated")
        expect.fromCache = try fields.optionalBool("fromCache")
        if let token = fields.value("token") {
            guard token == false || token.objectValue != nil else {
                throw fail("\(step): expect: field 'token' must be false (no token) or an object of claims the token must carry")
            }
            expect.token = token
        }
        if let failure = fields.value("failure") {
            guard failure.objectValue != nil || failure == .null else { throw fail("\(step): expect: field 'failure' must be an object (partial match) or null") }
            expect.failure = failure
        }
        expect.error = try fields.optionalString("error")
        expect.messageContains = try fields.optionalString("messageContains")
        expect.wiped = try fields.optionalBool("wiped")
        expect.fired = try fields.strings("fired")
        if let result = try fields.optionalString("result") {
            let names = ["Success", "Canceled", "NotAllowed", "Failed"]
            guard names.contains(result) else { throw fail("\(step): expect: field 'result' must be one of \(names.joined(separator: ", ")), found \"\(result)\"") }
            expect.result = result
        }
        expect.text = try fields.optionalString("text")
        try fields.finish()
        guard !expect.isEmpty else { throw fail("\(step): expect is empty") }
        return expect
    }
}
