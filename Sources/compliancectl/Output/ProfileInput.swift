import AppProfile
import ArgumentParser
import ComplianceCore
import Flows
import Foundation
import JSON

/// Reading app profiles for the commands that take one: a file that cannot be read or is
/// invalid is reported (naming the file and the key) and ends the command with 65; a fixed
/// profile that cannot be written, with 74.
enum ProfileInput {
    /// Runs `body`; an ``AppProfileError`` is printed on stderr (with --json: as JSON on stdout)
    /// and becomes exit status 65 (74 for a file that cannot be written, 64 for two paths that
    /// name one file).
    static func read<T>(json: Bool, _ body: () throws(AppProfileError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            var details: JSONObject = ["code": .string(error.code.description), "file": .string(error.file), "message": .string(error.message)]
            if let keyPath = error.keyPath { details["keyPath"] = .string(keyPath) }
            throw fail("\(error)", details: details, json: json, status: Self.status(of: error.code))
        }
    }

    private static func status(of code: AppProfileError.Code) -> ExitCode {
        switch code {
        case .unwritable: Exit.ioError
        case .sameFile: Exit.usage
        default: Exit.dataError
        }
    }

    /// The profile of `--app` (and `--entitlements`).
    static func load(_ infoPlist: String, entitlements: String?, json: Bool) throws -> AppProfile {
        try read(json: json) { () throws(AppProfileError) in try AppProfile.load(infoPlist: infoPlist, entitlements: entitlements) }
    }

    /// The app's App-Bound Domains settings; a list WebKit refuses (more than 10 domains) is an
    /// invalid profile (65), named like `profile lint` names it.
    static func appBoundSettings(_ profile: AppProfile, file: String, json: Bool) throws -> AppBoundSettings {
        do {
            return try profile.appBoundSettings()
        } catch {
            let message = "\(file): \(ProfileKeys.appBoundDomains): \(error.context) (run `compliancectl profile lint \(file)`)"
            throw fail(message, details: ["code": .string(WebNames.name(error.code)), "file": .string(file), "keyPath": .string(ProfileKeys.appBoundDomains), "message": .string(error.context)], json: json)
        }
    }

    private static func fail(_ message: String, details: JSONObject, json: Bool, status: ExitCode = Exit.dataError) -> ExitCode {
        if json {
            print(JSONValue.object(["error": .object(details)]).encodedString())
        } else {
            Terminal.warn(message)
        }
        return status
    }
}
