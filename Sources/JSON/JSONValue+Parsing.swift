import CJansson

extension JSONValue {
    /// Parses one JSON value (any type at top level) from UTF-8 bytes through jansson.
    ///
    /// Refuses, with a ``JSONParseError`` naming line and column: invalid UTF-8, duplicate keys,
    /// NUL in keys, integers beyond `Int64`, trailing text, input over `limits.maxBytes`, nesting
    /// over `limits.maxDepth`. NUL inside string values is kept.
    public static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(bytes.count, limits: limits) }
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parseBuffer(UnsafeRawBufferPointer(buffer), limits: limits)
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBytes { parseBuffer($0, limits: limits) }.get()
    }

    /// The UTF-8 byte-order mark some editors put at the start of a file (EF BB BF).
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Parses a JSON file's bytes as ``parse(_:limits:)`` does, after a leading UTF-8
    /// byte-order mark: editors on Windows write one, and RFC 8259 lets a parser ignore it.
    /// Wire bodies go through ``parse(_:limits:)``, which refuses it as the RFC asks of senders.
    public static func parseFile(_ bytes: [UInt8], limits: JSONLimits = .default) throws(JSONParseError) -> JSONValue {
        try parse(bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes[...], limits: limits)
    }

    /// Parses one JSON value from a string (its UTF-8 form).
    public static func parse(_ text: String, limits: JSONLimits = .default) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { parseBuffer(UnsafeRawBufferPointer($0), limits: limits) }
        return try result.get()
    }

    private static func parseBuffer(_ buffer: UnsafeRawBufferPointer, limits: JSONLimits) -> Result<JSONValue, JSONParseError> {
        if buffer.count > limits.maxBytes { return .failure(.tooLarge(buffer.count, limits: limits)) }
        var error = json_error_t()
        let flags = Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL)
        let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) ?? UnsafePointer(bitPattern: 1)
        guard let root = json_loadb(base, buffer.count, flags, &error) else {
            return .failure(JSONParseError(jansson: error, buffer: buffer))
        }
        defer { cjansson_decref(root) }
        var converter = JanssonReader(maxDepth: limits.maxDepth)
        if let value = converter.value(of: root, depth: 1) {
            return .success(value)
        }
        return .failure(DepthScanner.error(in: buffer, maxDepth: limits.maxDepth))
    }
}

/// Converts a jansson tree into `JSONValue`; returns nil when nesting exceeds `maxDepth`.
private struct JanssonReader {
    let maxDepth: Int

    mutating func value(of json: UnsafeMutablePointer<json_t>, depth: Int) -> JSONValue? {
        switch json_type(rawValue: UInt32(cjansson_typeof(json))) {
        case JSON_OBJECT:
            guard depth <= maxDepth else { return nil }
            var entries: [JSONObject.Entry] = []
            entries.reserveCapacity(json_object_size(json))
            var iterator = cjansson_object_iter(json)
            while let iter = iterator {
                let keyPointer = cjansson_object_iter_key(iter)!
                let keyLength = cjansson_object_iter_key_len(iter)
                let key = String(decoding: UnsafeRawBufferPointer(start: keyPointer, count: keyLength), as: UTF8.self)
                guard let member = value(of: cjansson_object_iter_value(iter)!, depth: depth + 1) else { return nil }
                entries.append(JSONObject.Entry(key: key, value: member))
                iterator = cjansson_object_iter_next(json, iter)
            }
            return .object(JSONObject(uncheckedEntries: entries))
        case JSON_ARRAY:
            guard depth <= maxDepth else { return nil }
            let count = json_array_size(json)
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                guard let element = value(of: json_array_get(json, index)!, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case JSON_STRING:
            let pointer = json_string_value(json)!
            let length = json_string_length(json)
            return .string(String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self))
        case JSON_INTEGER:
            return .int(Int64(json_integer_value(json)))
        case JSON_REAL:
            return .double(json_real_value(json))
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        default:
            return .null
        }
    }
}

extension JSONParseError {
    /// Input over ``JSONLimits/maxBytes``, refused before parsing.
    static func tooLarge(_ count: Int, limits: JSONLimits) -> JSONParseError {
        JSONParseError(
            code: .tooLarge, line: 0, column: 0, offset: limits.maxBytes,
            message: "input is \(count) bytes, more than the limit of \(limits.maxBytes)")
    }

    /// Maps jansson's error report; jansson counts lines from 1 and columns in characters.
    init(jansson error: json_error_t, buffer: UnsafeRawBufferPointer) {
        let rawCode = withUnsafeBytes(of: error.text) { $0[Int(JSON_ERROR_TEXT_LENGTH) - 1] }
        var text = error.text
        let message = withUnsafeBytes(of: &text) { raw -> String in
            let bytes = raw.prefix(Int(JSON_ERROR_TEXT_LENGTH) - 1)
            let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        let code: Code
        switch json_error_code(rawValue: UInt32(rawCode)) {
        case json_error_invalid_utf8: code = .invalidUTF8
        case json_error_duplicate_key: code = .duplicateKey
        case json_error_null_byte_in_key: code = .nulInKey
        case json_error_numeric_overflow: code = .numberOutOfRange
        case json_error_premature_end_of_input:
            code = buffer.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) ? .empty : .prematureEnd
        case json_error_stack_overflow: code = .tooDeep
        default: code = .syntax
        }
        self.init(
            code: code, line: max(Int(error.line), 1), column: max(Int(error.column), 1),
            offset: max(Int(error.position), 0), message: message)
    }
}

/// Finds where nesting first exceeds the limit, to report line and column for `.tooDeep`.
/// Runs only on that error path, so successful parses pay nothing for it.
private enum DepthScanner {
    static func error(in buffer: UnsafeRawBufferPointer, maxDepth: Int) -> JSONParseError {
        var depth = 0, line = 1, column = 0
        var inString = false, escaped = false
        for (offset, byte) in buffer.enumerated() {
            if byte & 0xC0 != 0x80 { column += 1 }  // count scalars, not continuation bytes
            if byte == 0x0A { line += 1; column = 0; continue }
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > maxDepth {
                    return JSONParseError(
                        code: .tooDeep, line: line, column: column, offset: offset,
                        message: "nesting deeper than the limit of \(maxDepth)")
                }
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return JSONParseError(code: .tooDeep, line: 1, column: 1, offset: 0, message: "nesting deeper than the limit of \(maxDepth)")
    }
}
