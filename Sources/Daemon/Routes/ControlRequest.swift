import Foundation
import Hummingbird
import NIOCore

/// Reading a control request: its JSON body, its path parameters, its query.
extension Request {
    /// The JSON object body (``ControlBody``, at most ``ControlLimits/maxJSONBytes``); a larger
    /// one is a 413 `payload_too_large` naming `route`.
    func controlBody(route: String, known: Set<String>) async throws -> ControlBody {
        let bytes: [UInt8]
        do {
            bytes = Array(try await body.collect(upTo: ControlLimits.maxJSONBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw ControlError(.contentTooLarge, "payload_too_large", "\(route): JSON bodies are at most \(ControlLimits.maxJSONBytes) bytes")
        }
        return try ControlBody(bytes, route: route, known: known)
    }

    /// The query parameters; one not in `known` is a 400 naming it and the known ones.
    func controlQuery(route: String, known: [String]) throws(ControlError) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in uri.queryParameters {
            guard known.contains(String(name)) else {
                throw .badRequest("\(route): unknown query parameter '\(name)'; known: \(known.joined(separator: ", "))")
            }
            parameters[String(name)] = String(value)
        }
        return parameters
    }
}

extension ControlRequestContext {
    /// The path parameter `name`, percent-decoded.
    func pathParameter(_ name: String) throws(ControlError) -> String {
        guard let value = parameters.get(name) else { throw .badRequest("missing path parameter \(name)") }
        return value.removingPercentEncoding ?? value
    }
}
