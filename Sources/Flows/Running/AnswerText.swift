import JSON

/// A server's answer in a progress line: whole when it is short, else whole members of it
/// (never cut mid-value), saying how many more there are. The JSON report holds it whole.
enum AnswerText {
    static func brief(_ value: JSONValue, limit: Int = 160) -> String {
        let whole = value.encodedString()
        guard whole.count > limit else { return whole }
        switch value {
        case .object(let object):
            var shown: [String] = []
            var length = 0
            for (key, member) in object {
                let text = JSONValue.string(key).encodedString() + ":" + member.encodedString()
                guard length + text.count <= limit else { break }
                shown.append(text)
                length += text.count + 1
            }
            let rest = object.count - shown.count
            return "{" + shown.joined(separator: ",") + (shown.isEmpty ? "" : ", ") + "… \(rest) more member\(rest == 1 ? "" : "s")}"
        case .array(let items):
            return "[\(items.count) elements, \(whole.utf8.count) bytes]"
        default:
            return "\(value.kindName) of \(whole.utf8.count) bytes"
        }
    }
}
