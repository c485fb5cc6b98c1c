import JSON

extension FieldReader {
    /// The error for the required field `key` when it is absent: a field of the object that
    /// nobody read and that is `key` misspelt (``ClosestName``) is named as unknown, with
    /// `key`; otherwise `otherwise`.
    func missing(_ key: String, otherwise: FlowError) -> FlowError {
        let unread = object.keys.filter { !known.contains($0) }
        guard let typo = unread.first(where: { ClosestName.to($0, among: [key]) != nil }) else { return otherwise }
        return fail("\(place): unknown field '\(typo)' (closest known: '\(key)', which is required)")
    }
}
