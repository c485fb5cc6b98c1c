/// Milliseconds since 1970-01-01T00:00:00Z. Every time the store keeps is absolute, in this unit.
public typealias EpochMillis = Int64
