/// The first `<form>` of an HTML page: its action, method and input fields.
///
/// Enough HTML to drive a sign-in page the way a person's browser would (no scripts): tags
/// are scanned, attribute values unquoted and the five XML entities plus numeric ones decoded.
public struct HTMLForm: Sendable, Hashable {
    public var action: String
    public var method: String
    /// `(name, value, type)` of each `<input>` and `<button>` with a name, in order.
    public var fields: [(name: String, value: String, type: String)]

    public static func == (lhs: HTMLForm, rhs: HTMLForm) -> Bool {
        lhs.action == rhs.action && lhs.method == rhs.method
            && lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(method)
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }

    /// Parses the first form of `html`; nil when the page has none.
    public static func first(in html: String) -> HTMLForm? {
        var form: HTMLForm?
        for tag in tags(in: html) {
            switch tag.name {
            case "form" where form == nil:
                form = HTMLForm(action: tag.attributes["action"] ?? "", method: (tag.attributes["method"] ?? "get").lowercased(), fields: [])
            case "/form" where form != nil:
                return form
            case "input", "button":
                guard form != nil, let name = tag.attributes["name"] else { continue }
                let type = (tag.attributes["type"] ?? (tag.name == "button" ? "submit" : "text")).lowercased()
                form?.fields.append((name, tag.attributes["value"] ?? "", type))
            default:
                continue
            }
        }
        return form
    }

    /// The fields a browser submits when the button `submit` is pressed: every non-button
    /// field with `overrides` applied, plus that button.
    public func submission(pressing submit: String, overrides: [String: String]) -> [(String, String)] {
        var result: [(String, String)] = []
        for field in fields {
            if field.type == "submit" || field.type == "button" {
                if field.name == submit { result.append((field.name, field.value)) }
            } else {
                result.append((field.name, overrides[field.name] ?? field.value))
            }
        }
        return result
    }

    private struct Tag {
        var name: String
        var attributes: [String: String]
    }

    private static func tags(in html: String) -> [Tag] {
        var tags: [Tag] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let inner = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if inner.hasPrefix("!") { continue }
            tags.append(parseTag(inner))
        }
        return tags
    }

    private static func parseTag(_ text: Substring) -> Tag {
        var scanner = text.trimmingSuffix("/")[...]
        let name = scanner.prefix { !$0.isWhitespace }.lowercased()
        scanner = scanner.drop { !$0.isWhitespace }
        var attributes: [String: String] = [:]
        while true {
            scanner = scanner.drop { $0.isWhitespace }
            guard !scanner.isEmpty else { break }
            let key = scanner.prefix { $0 != "=" && !$0.isWhitespace }.lowercased()
            scanner = scanner.dropFirst(key.count).drop { $0.isWhitespace }
            guard scanner.first == "=" else {
                if !key.isEmpty { attributes[key] = "" }
                if key.isEmpty { scanner = scanner.dropFirst() }
                continue
            }
            scanner = scanner.dropFirst().drop { $0.isWhitespace }
            let value: Substring
            if let quote = scanner.first, quote == "\"" || quote == "'" {
                let body = scanner.dropFirst()
                value = body.prefix { $0 != quote }
                scanner = body.dropFirst(value.count + 1)
            } else {
                value = scanner.prefix { !$0.isWhitespace }
                scanner = scanner.dropFirst(value.count)
            }
            if attributes[key] == nil { attributes[key] = decodeEntities(value) }
        }
        return Tag(name: name, attributes: attributes)
    }

    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var output = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let after = rest[amp...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = after[after.index(after: amp)..<semicolon]
            let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let character = named[entity] {
                output += character
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let code = UInt32(entity.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code) {
                output.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                output.unicodeScalars.append(scalar)
            } else {
                output += after[...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return output + rest
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: Character) -> Substring {
        var text = self
        while text.last == suffix || text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
