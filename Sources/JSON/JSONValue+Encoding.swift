import CJansson

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONValue {
    /// Compact JSON text as UTF-8 bytes, produced by jansson.
    ///
    /// - Parameter sortedKeys: sort object keys by their UTF-8 bytes; otherwise keep insertion order.
    /// Non-finite doubles are written as `null`.
    public func encoded(sortedKeys: Bool = false) -> [UInt8] {
        let tree = JanssonWriter.tree(for: self)
        defer { cjansson_decref(tree) }
        var flags = Int(JSON_COMPACT | JSON_ENCODE_ANY)
        if sortedKeys { flags |= Int(JSON_SORT_KEYS) }
        // One pass into jansson's own buffer, then one copy (a Swift callback per piece made
        // encoding about a fifth slower). jansson escapes NUL as \u0000, so strlen is the length.
        guard let text = json_dumps(tree, flags) else { return [] }
        defer { free(text) }
        return Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// Compact JSON text as a `String`.
    public func encodedString(sortedKeys: Bool = false) -> String {
        String(decoding: encoded(sortedKeys: sortedKeys), as: UTF8.self)
    }
}

/// Builds a jansson tree (new reference) from a `JSONValue`.
private enum JanssonWriter {
    static func tree(for value: JSONValue) -> UnsafeMutablePointer<json_t> {
        switch value {
        case .null:
            return cjansson_null()
        case .bool(let flag):
            return flag ? cjansson_true() : cjansson_false()
        case .int(let number):
            return json_integer(json_int_t(number))
        case .double(let number):
            return number.isFinite ? json_real(number) : cjansson_null()
        case .string(let text):
            return string(text)
        case .array(let elements):
            let array = json_array()!
            for element in elements { json_array_append_new(array, tree(for: element)) }
            return array
        case .object(let object):
            let result = json_object()!
            for (key, member) in object {
                var key = key
                key.withUTF8 { utf8 in
                    _ = cjansson_object_setn_new(result, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self), utf8.count, tree(for: member))
                }
            }
            return result
        }
    }

    private static func string(_ text: String) -> UnsafeMutablePointer<json_t> {
        var text = text
        return text.withUTF8 { utf8 in
            // Swift strings are valid UTF-8, so jansson's check can be skipped; NUL is kept.
            guard !utf8.isEmpty else { return json_string("")! }
            return utf8.withMemoryRebound(to: CChar.self) { json_stringn_nocheck($0.baseAddress!, $0.count)! }
        }
    }
}
