import Foundation
import JSON

/// Reads flow files (flows/README.md): JSON with `name`, `description`, `fixture`, `app` and
/// `steps`. Everything is checked before anything runs: unknown steps, unknown or mistyped
/// fields and bad values fail with the file, the step index and the reason.
public enum FlowParser {
    /// The largest flow file accepted.
    public static let maxBytes = 1 << 20

    /// Reads and parses the flow at `path`.
    public static func load(_ path: String) throws(FlowError) -> Flow {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw FlowError(file: path, step: nil, reason: exists ? (isDirectory.boolValue ? "is a directory" : "cannot be read") : "no such file")
        }
        guard data.count <= maxBytes else { throw FlowError(file: path, step: nil, reason: "is larger than \(maxBytes) bytes") }
        return try parse(Array(data), file: path)
    }

    /// Parses flow JSON; `file` names it in errors and anchors relative fixture and app paths.
    public static func parse(_ bytes: [UInt8], file: String) throws(FlowError) -> Flow {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw FlowError(file: file, step: nil, reason: "not valid JSON at line \(error.line), column \(error.column): \(error.message)")
        }
        let topFail = { (reason: String) in FlowError(file: file, step: nil, reason: reason) }
        var top = try FieldReader(document, place: "the flow", fail: topFail)
        let name = try top.optionalString("name") ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let description = try top.optionalString("description") ?? ""
        let directory = (file as NSString).deletingLastPathComponent
        let fixture = try FixturePaths.resolve(try top.optionalString("fixture"), default: "contoso.json", under: "mocks/fixtures", from: directory)
            .get(orThrow: topFail("field 'fixture'"))
        let app = try FixturePaths.resolve(try top.optionalString("app"), default: "chatr-Info.plist", under: "mocks/fixtures/apps", from: directory)
            .get(orThrow: topFail("field 'app'"))
        var entitlements: String?
        if let value = try top.optionalString("entitlements") {
            entitlements = try FixturePaths.resolve(value, default: "", under: "", from: directory).get(orThrow: topFail("field 'entitlements'"))
        }
        let issuer = try top.optionalString("issuer") ?? "mock"
        guard ["mock", "unreachable"].contains(issuer) else { throw topFail("the flow: field 'issuer' must be \"mock\" or \"unreachable\", found \"\(issuer)\"") }
        let wipeHook = try top.optionalString("wipeHook")
        if let wipeHook, wipeHook.isEmpty { throw topFail("the flow: field 'wipeHook' is empty (leave it out for an app without a hook)") }
        guard let stepValues = try top.array("steps") else { throw topFail("the flow: field 'steps' is required") }
        guard !stepValues.isEmpty else { throw topFail("the flow: 'steps' is empty") }
        try top.finish()
        var steps: [FlowStep] = []
        for (offset, value) in stepValues.enumerated() {
            steps.append(try StepParser.parse(value, index: offset + 1, file: file))
        }
        var flow = Flow(
            name: name, description: description, file: file, fixture: fixture, app: app, issuerReachable: issuer == "mock",
            entitlements: entitlements, webApp: try WebFields.appProfile(for: steps, app: app, entitlements: entitlements, file: file),
            steps: steps)
        flow.wipeHook = wipeHook
        return flow
    }
}

/// Finds a flow's fixture and app files.
enum FixturePaths {
    /// `value` relative to the flow's directory when given; otherwise `fallback` in the
    /// nearest `under` folder above the flow (e.g. mocks/fixtures/contoso.json).
    static func resolve(_ value: String?, default fallback: String, under folder: String, from directory: String) -> Result<String, ResolveError> {
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
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        return .failure(ResolveError(reason: "not given, and no \(folder)/\(fallback) above \(directory.isEmpty ? "." : directory)"))
    }

    struct ResolveError: Error {
        let reason: String
    }
}

extension Result where Failure == FixturePaths.ResolveError {
    func get(orThrow error: FlowError) throws(FlowError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure): throw FlowError(file: error.file, step: error.step, reason: "\(error.reason): \(failure.reason)")
        }
    }
}
