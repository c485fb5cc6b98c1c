/// Close spellings: a member name that is not known is most often a known one misspelt
/// (`acount`, `caTargetted`, `redirectUri`), so messages about JSON documents (flow files,
/// tenant fixtures, policy settings) name the closest known name.
public enum ClosestName {
    /// The name in `candidates` closest to `name` (edit distance, ignoring case), when it is
    /// close enough to be a misspelling: at most a third of the longer name's letters, at
    /// least one.
    public static func to(_ name: String, among candidates: some Sequence<String>) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            let limit = max(1, max(name.count, candidate.count) / 3)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `"closest known: 'NAME'; "` for the closest of `candidates`, or an empty string, to
    /// put before a list of the known names.
    public static func hint(_ name: String, among candidates: some Sequence<String>) -> String {
        to(name, among: candidates).map { "closest known: '\($0)'; " } ?? ""
    }

    /// Levenshtein distance over characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
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
