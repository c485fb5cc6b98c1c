import ControlClient
import JSON

/// The buffer steps (`protect`, `unprotect`, `expectProtectionInfo`) and `expectData`'s
/// `owners` (each file's owner as its header names it).
extension FlowRunner {
    func runProtection(_ step: FlowStep, _ context: RunContext) async -> StepCheck {
        let client = context.stack.client
        var expected = JSONObject()
        var answer: JSONValue
        do {
            switch step.action {
            case .protect(let identity, let text, let keep, let wanted):
                expected = wanted
                answer = try await client.protect(Array(text.utf8), identity: identity)
                guard let bytes = answer["data"]?.stringValue.flatMap(ControlClient.bytes(base64:)) else {
                    return .failed("protect answered without base64 'data': \(AnswerText.brief(answer))")
                }
                context.kept[keep] = bytes
            case .unprotect(let input, let corrupt, let wanted):
                expected = wanted
                guard let bytes = Self.bytes(input, corrupt: corrupt, context) else { return .failed("nothing was kept as \(input)") }
                answer = try await client.unprotect(bytes)
                if let plain = answer["data"]?.stringValue.flatMap(ControlClient.bytes(base64:)), case .object(var object) = answer {
                    object["text"] = .string(String(decoding: plain, as: UTF8.self))
                    answer = .object(object)
                }
            case .expectProtectionInfo(let input, let corrupt, let wanted):
                expected = wanted
                guard let bytes = Self.bytes(input, corrupt: corrupt, context) else { return .failed("nothing was kept as \(input)") }
                answer = try await client.protectionInfo(bytes)
            default:
                preconditionFailure("not a buffer step: \(step.action.summary)")
            }
        } catch {
            guard let code = error.apiCode else { return StepCheck(passed: false, detail: "no answer from the daemon: \(error.message)", daemonProblem: true) }
            guard let wanted = expected["error"]?.stringValue else { return .failed("refused: \(code): \(error.message)") }
            var mismatches: [String] = []
            if code != wanted { mismatches.append("error: expected \(wanted), got \(code) (\(error.message))") }
            if let text = expected["messageContains"]?.stringValue, !error.message.contains(text) {
                mismatches.append("messageContains: expected text \"\(text)\" in \"\(error.message)\"")
            }
            return StepCheck(passed: mismatches.isEmpty, detail: "refused: \(code): \(error.message)", mismatches: mismatches)
        }
        if let wanted = expected["error"]?.stringValue {
            return .failed("expected the daemon to refuse with \(wanted)", ["error: expected \(wanted), got an answer: \(Self.describe(answer))"])
        }
        var pattern = expected
        pattern["messageContains"] = nil
        if let miss = JSONPattern.mismatch(.object(pattern), answer) { return .failed(Self.describe(answer), ["\(miss)"]) }
        return .passed(Self.describe(answer))
    }

    /// `expectData`'s `owners`: each file's header names the owner (after the other checks).
    func checkOwners(_ account: String, _ owners: [(String, String)], _ check: StepCheck, _ context: RunContext) async throws -> StepCheck {
        guard !owners.isEmpty, check.passed || !check.mismatches.isEmpty else { return check }
        var result = check
        for (name, owner) in owners {
            let answer: JSONValue
            do {
                answer = try await context.stack.client.fileProtectionInfo(account, name: name)
            } catch {
                let code = error.apiCode ?? ""
                guard code == "not_found" || code == "unknown_account" else { throw error }
                result.mismatches.append("\(name): expected owner \(owner), but \(error.message)")
                continue
            }
            let actual = answer["owner"]?.stringValue ?? "none"
            if actual != owner.lowercased() { result.mismatches.append("\(name): expected owner \(owner.lowercased()), its header names \(actual)") }
        }
        result.passed = result.mismatches.isEmpty
        return result
    }

    /// The bytes of a step's input, the last byte flipped with `corrupt`; nil when nothing is kept under the name.
    static func bytes(_ input: BufferInput, corrupt: Bool, _ context: RunContext) -> [UInt8]? {
        var bytes: [UInt8]
        switch input {
        case .kept(let name):
            guard let kept = context.kept[name] else { return nil }
            bytes = kept
        case .text(let text):
            bytes = Array(text.utf8)
        }
        if corrupt, !bytes.isEmpty { bytes[bytes.count - 1] ^= 0x01 }
        return bytes
    }

    /// "owner alice@contoso.com, encrypted" / "not protected".
    static func describe(_ answer: JSONValue) -> String {
        if answer["protected"] == false { return "not protected data" }
        let owner = answer["owner"]?.stringValue ?? "no user"
        return "owner \(owner), " + (answer["encrypted"] == true ? "encrypted" : "identity header only")
    }
}
