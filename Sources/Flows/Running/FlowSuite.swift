import Foundation

/// Finds flow files, parses all of them before running any, and runs them: concurrently
/// (up to `jobs` at once) when each gets its own mock and daemon, one by one otherwise.
public enum FlowSuite {
    /// The flow files named by `paths`: files as given, directories' `*.json` files
    /// (recursively, sorted). Errors name the path that is neither.
    public static func files(_ paths: [String]) throws(FlowError) -> [String] {
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw FlowError(file: path, step: nil, reason: "no such file or directory")
            }
            guard isDirectory.boolValue else {
                result.append(path)
                continue
            }
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".json") }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            guard !found.isEmpty else { throw FlowError(file: path, step: nil, reason: "holds no .json flow files") }
            result += found
        }
        return result
    }

    /// Parses every file (with `parameters` for their `${NAME}`s and `defaults` for the fields
    /// they leave out); returns the flows, or every error found.
    public static func load(_ files: [String], parameters: [String: String] = [:], defaults: FlowDefaults = FlowDefaults()) -> Result<[Flow], FlowLoadErrors> {
        var flows: [Flow] = []
        var errors: [FlowError] = []
        for file in files {
            do {
                flows.append(try FlowParser.load(file, parameters: parameters, defaults: defaults))
            } catch {
                errors.append(error)
            }
        }
        return errors.isEmpty ? .success(flows) : .failure(FlowLoadErrors(errors: errors))
    }

    /// Runs `flows`; results come back in the flows' order.
    public static func run(_ flows: [Flow], options: RunOptions, jobs: Int, progress: @escaping @Sendable (FlowProgress) -> Void) async -> [FlowResult] {
        let width = options.flowsAreIndependent ? max(1, jobs) : 1
        return await withTaskGroup(of: (Int, FlowResult).self) { group in
            var results = [FlowResult?](repeating: nil, count: flows.count)
            var next = 0
            func startNext() {
                guard next < flows.count else { return }
                let index = next
                let runner = FlowRunner(flow: flows[index], options: options, progress: progress)
                group.addTask { (index, await runner.run()) }
                next += 1
            }
            for _ in 0..<width { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
            return results.compactMap { $0 }
        }
    }
}

/// Every flow file that could not be parsed.
public struct FlowLoadErrors: Error, Sendable {
    public let errors: [FlowError]
}
