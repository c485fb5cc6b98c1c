/// Close spellings: a field name that is not known is most often a known one misspelt
/// (`acount`, `scope`, `Account`), so messages name the closest known name.
enum FieldNames {
    /// The name in `candidates` closest to `name` (edit distance, ignoring case), when it is
    /// close enough to be a misspelling: at most a third of the longer name's letters, at
    /// least one.
    static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            let limit = max(1, max(name.count, candidate.count) / 3)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension FieldReader {
    /// The error for the required field `key` when it is absent: a field of the object that
    /// nobody read and that is `key` misspelt is named as unknown, with `key`; otherwise
    /// `otherwise`.
    func missing(_ key: String, otherwise: FlowError) -> FlowError {
        let unread = object.keys.filter { !known.contains($0) }
        guard let typo = unread.first(where: { FieldNames.closest(to: $0, among: [key]) != nil }) else { return otherwise }
        return fail("\(place): unknown field '\(typo)' (closest known: '\(key)', which is required)")
    }
}
