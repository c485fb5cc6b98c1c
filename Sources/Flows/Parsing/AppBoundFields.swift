import ComplianceCore
import JSON

/// `expectAppBound`: `limitsNavigations`, `events` (each `{"navigate": URL-or-"htmlString",
/// "frame"?, "expect"}` or `{"call": API, "expect"}`), and `expect` (`topFrame`, `error`).
enum AppBoundFields {
    static func check(_ fields: inout FieldReader) throws(FlowError) -> AppBoundCheck {
        let limits = try fields.bool("limitsNavigations", default: false)
        var steps: [AppBoundCheck.Step] = []
        for (offset, value) in (try fields.array("events") ?? []).enumerated() {
            var item = try FieldReader(value, place: "\(fields.place): event \(offset + 1)", fail: fields.fail)
            steps.append(try step(&item))
            try item.finish()
        }
        var topFrame: String?
        var error: String?
        if let value = fields.value("expect") {
            var expect = try FieldReader(value, place: fields.place + ": expect", fail: fields.fail)
            topFrame = try expect.optionalString("topFrame")
            if let topFrame, !topFrame.isEmpty, WebNames.content(topFrame) == nil {
                throw expect.fail("\(expect.place): field 'topFrame' must be a URL, \"htmlString\" or \"\" (nothing loaded), found '\(topFrame)'")
            }
            error = try expect.optionalChoice("error", [("tooManyAppBoundDomains", "tooManyAppBoundDomains")])
            try expect.finish()
        }
        if error != nil, !steps.isEmpty || topFrame != nil {
            throw fields.fail("\(fields.place): with expect.error the profile is refused: give no 'events' and no 'topFrame'")
        }
        if error == nil, steps.isEmpty { throw fields.fail("\(fields.place): field 'events' is required (navigations and API calls in order)") }
        return AppBoundCheck(limitsNavigations: limits, steps: steps, expectedTopFrame: topFrame, expectedError: error)
    }

    private static func step(_ item: inout FieldReader) throws(FlowError) -> AppBoundCheck.Step {
        switch (item.has("navigate"), item.has("call")) {
        case (true, false):
            let text = try item.string("navigate")
            guard let content = WebNames.content(text) else {
                throw item.fail("\(item.place): field 'navigate' must be a URL or \"htmlString\", found '\(text)'")
            }
            let frame = try item.choice("frame", WebNames.frames, default: .top)
            let expected = try item.choice("expect", WebNames.appBoundNavigationNames.map { ($0, $0) }, default: nil)
            return AppBoundCheck.Step(event: .navigate(content, frame), expected: expected)
        case (false, true):
            let api = try item.choice("call", WebFields.cases(RestrictedWebAPI.self), default: nil)
            let expected = try item.choice("expect", WebNames.apiActionNames.map { ($0, $0) }, default: nil)
            return AppBoundCheck.Step(event: .call(api), expected: expected)
        default:
            throw item.fail("\(item.place): give exactly one of 'navigate' (a URL or \"htmlString\") and 'call' (a restricted API)")
        }
    }
}
