import Foundation
import JSON

/// Reads flow files (flows/README.md): JSON with `name`, `description`, `fixture`, `app` and
/// `steps`. Everything is checked before anything runs: unknown steps, unknown or mistyped
/// fields and bad values fail with the file, the step index and the reason.
public enum FlowParser {
    /// The largest flow file accepted.
    public static let maxBytes = 1 << 20

    /// Reads and parses the flow at `path`; `parameters` fill its `${NAME}` placeholders and
    /// `defaults` stand in for the fields it leaves out.
    public static func load(_ path: String, parameters: [String: String] = [:], defaults: FlowDefaults = FlowDefaults()) throws(FlowError) -> Flow {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw FlowError(file: path, step: nil, reason: exists ? (isDirectory.boolValue ? "is a directory" : "cannot be read") : "no such file")
        }
        guard data.count <= maxBytes else { throw FlowError(file: path, step: nil, reason: "is larger than \(maxBytes) bytes") }
        return try parse(Array(data), file: path, parameters: parameters, defaults: defaults)
    }

    /// Parses flow JSON (a leading UTF-8 byte-order mark is skipped); `file` names it in errors
    /// and anchors relative fixture and app paths.
    /// Every `${NAME}` in a step's strings and in the path fields (`fixture`, `app`,
    /// `entitlements`, the hooks) becomes `parameters[NAME]`, else the flow's own default (its
    /// `parameters` object); a name with neither is an error naming the step or the field.
    public static func parse(
        _ bytes: [UInt8], file: String, parameters: [String: String] = [:], defaults: FlowDefaults = FlowDefaults()
    ) throws(FlowError) -> Flow {
        let document: JSONValue
        do {
            document = try JSONValue.parseFile(bytes)
        } catch {
            throw FlowError(file: file, step: nil, reason: "not valid JSON at line \(error.line), column \(error.column): \(error.message)")
        }
        let topFail = { (reason: String) in FlowError(file: file, step: nil, reason: reason) }
        var top = try FieldReader(document, place: "the flow", fail: topFail)
        let name = try top.optionalString("name") ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let description = try top.optionalString("description") ?? ""
        // Not NSString.deletingLastPathComponent: it traps on a one-character name ("f").
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var values = parameters
        if let given = try top.objectField("parameters") {
            for (name, value) in given {
                guard let text = value.stringValue else { throw topFail("the flow: parameter '\(name)' must be a string, found \(value.kindName)") }
                if values[name] == nil { values[name] = text }
            }
        }
        /// A top-level string field with its `${NAME}`s filled; a NUL in it (a path or command
        /// would be cut there) makes the flow invalid.
        func filled(_ key: String) throws(FlowError) -> String? {
            guard let text = try top.optionalString(key) else { return nil }
            let value = try FlowParameters.fill(text) { name throws(FlowError) in
                guard let value = values[name] else {
                    throw topFail("the flow: field '\(key)': unknown parameter '${\(name)}': give it with --param \(name)=VALUE or a default in the flow's 'parameters'")
                }
                return value
            }
            if value.contains("\u{0}") { throw topFail("the flow: field '\(key)' holds a NUL (a path or command would be cut there)") }
            return value
        }
        let fixtureValue = try filled("fixture")
        let appValue = try filled("app")
        var entitlements: String?
        if let value = try filled("entitlements") {
            entitlements = try FixturePaths.resolve(value, default: "", under: "", from: directory).get(orThrow: topFail("field 'entitlements'"))
        }
        let issuer = try top.optionalString("issuer") ?? "mock"
        guard ["mock", "unreachable"].contains(issuer) else { throw topFail("the flow: field 'issuer' must be \"mock\" or \"unreachable\", found \"\(issuer)\"") }
        let wipeHook = try filled("wipeHook")
        if let wipeHook, wipeHook.allSatisfy(\.isWhitespace) { throw topFail("the flow: field 'wipeHook' is blank (leave it out for an app without a hook)") }
        let restartHook = try filled("restartHook")
        if let restartHook, restartHook.allSatisfy(\.isWhitespace) { throw topFail("the flow: field 'restartHook' is blank (leave it out for an app the daemon restarts itself)") }
        let identityHook = try filled("identityHook")
        if let identityHook, identityHook.allSatisfy(\.isWhitespace) { throw topFail("the flow: field 'identityHook' is blank (leave it out for an app whose answers the daemon gives)") }
        guard let stepValues = try top.array("steps") else { throw top.missing("steps", otherwise: topFail("the flow: field 'steps' is required")) }
        guard !stepValues.isEmpty else { throw topFail("the flow: 'steps' is empty") }
        try top.finish()
        var steps: [FlowStep] = []
        for (offset, value) in stepValues.enumerated() {
            let filled = try FlowParameters.fill(value) { name throws(FlowError) in
                guard let text = values[name] else {
                    throw FlowError(file: file, step: offset + 1, reason: "unknown parameter '${\(name)}': give it with --param \(name)=VALUE or a default in the flow's 'parameters'")
                }
                return text
            }
            steps.append(try StepParser.parse(filled, index: offset + 1, file: file))
        }
        if let problem = ProtectionFields.keptNamesProblem(steps) { throw FlowError(file: file, step: problem.step, reason: problem.reason) }
        let fixture = try fixture(fixtureValue, for: steps, from: directory, file: file, defaults: defaults)
        let app = try FixturePaths.resolve(
            appValue ?? defaults.app, default: "chatr-Info.plist", under: "mocks/fixtures/apps", from: appValue == nil ? "" : directory,
            searchingFrom: directory, installed: defaults.dataDirectories
        ).get(orThrow: topFail("field 'app'"), then: appValue == nil && defaults.app == nil ? "give \"app\" (a path relative to the flow file), or run --app PLIST" : nil)
        var flow = Flow(
            name: name, description: description, file: file, fixture: fixture, app: app, issuerReachable: issuer == "mock",
            entitlements: entitlements, webApp: try WebFields.appProfile(for: steps, app: app, entitlements: entitlements, file: file),
            steps: steps)
        flow.wipeHook = wipeHook
        flow.restartHook = restartHook
        flow.identityHook = identityHook
        return flow
    }

    /// The mock's fixture: the given file, which must exist; else, when a step needs mockauth
    /// (any step but a web check) and the run starts it (names no issuer), `contoso.json` in
    /// the nearest mocks/fixtures above the flow or in the installed data, and an error naming
    /// that step when there is none; else none.
    private static func fixture(
        _ value: String?, for steps: [FlowStep], from directory: String, file: String, defaults: FlowDefaults
    ) throws(FlowError) -> String? {
        let field = FlowError(file: file, step: nil, reason: "field 'fixture'")
        if value != nil {
            return try FixturePaths.resolve(value, default: "contoso.json", under: "mocks/fixtures", from: directory).get(orThrow: field)
        }
        guard let needing = steps.first(where: { !$0.isWebCheck }) else { return nil }
        let found = FixturePaths.resolve(nil, default: "contoso.json", under: "mocks/fixtures", from: directory, installed: defaults.dataDirectories)
        if defaults.issuerGiven, case .failure = found { return nil }  // the run's issuer serves the tenant
        let why = "step \(needing.index) (\(needing.action.summary)) runs against mockauth, which serves a tenant fixture; "
            + "give \"fixture\" (a path relative to the flow file), or run it with --authority against a running mock"
        return try found.get(orThrow: field, then: why)
    }
}

/// Finds a flow's fixture and app files.
enum FixturePaths {
    /// `value` relative to `directory` when given; otherwise `fallback` in the nearest `under`
    /// folder above `searchingFrom` (the flow's directory; e.g. mocks/fixtures/contoso.json),
    /// then in each `installed` data folder (`…/share/compliance-orchestrator/mocks/fixtures`).
    static func resolve(
        _ value: String?, default fallback: String, under folder: String, from directory: String, searchingFrom: String? = nil,
        installed: [String] = []
    ) -> Result<String, ResolveError> {
        let directory = value == nil ? (searchingFrom ?? directory) : directory
        if let value {
            let path = value.hasPrefix("/") ? value : (directory as NSString).appendingPathComponent(value)
            let standardized = (path as NSString).standardizingPath
            return FileManager.default.fileExists(atPath: standardized) ? .success(standardized) : .failure(ResolveError(reason: "\(standardized) does not exist"))
        }
        var current = ((directory.isEmpty ? "." : directory) as NSString).standardizingPath
        let absolute = current.hasPrefix("/") ? current : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(current)
        current = (absolute as NSString).standardizingPath
        while true {
            let candidate = ((current as NSString).appendingPathComponent(folder) as NSString).appendingPathComponent(fallback)
            if FileManager.default.fileExists(atPath: candidate) { return .success(candidate) }
            let parent = URL(fileURLWithPath: current).deletingLastPathComponent().path
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        for data in installed {
            let candidate = ((data as NSString).appendingPathComponent(folder) as NSString).appendingPathComponent(fallback)
            if FileManager.default.fileExists(atPath: candidate) { return .success(candidate) }
        }
        let nowhere = installed.isEmpty ? "" : " nor in \(installed.joined(separator: ", "))"
        return .failure(ResolveError(reason: "not given, and no \(folder)/\(fallback) above \(directory.isEmpty ? "." : directory)\(nowhere)"))
    }

    struct ResolveError: Error {
        let reason: String
    }
}

extension Result where Failure == FixturePaths.ResolveError {
    /// The path, or `error` with the failure's reason (and `advice`, when given) appended.
    func get(orThrow error: FlowError, then advice: String? = nil) throws(FlowError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure):
            throw FlowError(file: error.file, step: error.step, reason: "\(error.reason): \(failure.reason)" + (advice.map { "; \($0)" } ?? ""))
        }
    }
}

/// `${NAME}` placeholders in a step's strings (flows/README.md, "Parameters").
enum FlowParameters {
    /// `value` with every `${NAME}` in its strings replaced by `lookup(NAME)`.
    static func fill(_ value: JSONValue, _ lookup: (String) throws(FlowError) -> String) throws(FlowError) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(try fill(text, lookup))
        case .array(let items):
            var filled: [JSONValue] = []
            for item in items { filled.append(try fill(item, lookup)) }
            return .array(filled)
        case .object(let object):
            var filled = JSONObject()
            for (key, item) in object { filled[key] = try fill(item, lookup) }
            return .object(filled)
        default:
            return value
        }
    }

    static func fill(_ text: String, _ lookup: (String) throws(FlowError) -> String) throws(FlowError) -> String {
        guard text.contains("${") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                result += rest[start.lowerBound...]
                return result
            }
            result += try lookup(String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
