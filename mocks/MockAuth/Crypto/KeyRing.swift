import Crypto
import Foundation
import JSON
import Synchronization
import X509
import _CryptoExtras

/// The issuer's signing keys as Entra publishes them (issue 41 point 1).
///
/// The JWKS lists the next key first (published before it signs anything, as Entra does),
/// then the current signing key, then keys rotated out that are still published until their
/// retirement time. Every entry carries `x5c` (a self-signed certificate of the key) and
/// `x5t`. A rotation (`POST /_admin/keys/rotate`) makes the next key the signing key,
/// publishes a new next key and keeps the old signing key for `retainSeconds`: a client
/// that cached the set once, takes `keys[0]` or ignores `kid` fails within two rotations.
public final class KeyRing: Sendable {
    struct Entry: Sendable {
        var key: SigningKey
        /// When a rotated-out key leaves the JWKS (mock clock); nil while it is current or next.
        var retireAt: Date?
        /// The key's JWK with `x5c` and `x5t`, made once.
        var jwk: JSONValue?
    }

    private struct Ring: Sendable {
        var next: Entry?
        var current: Entry?
        var previous: [Entry] = []
    }

    private let ring = Mutex(Ring())

    public init() {}

    /// Makes `key` the signing key unless the ring has one already (a shared state), with its
    /// companion as the next key: made here, off the event loops, and once a process for a key
    /// (RSA generation is slow: many mocks of one test process share their keys).
    func install(_ key: SigningKey) {
        guard ring.withLock({ $0.current == nil }) else { return }
        let next = try? Self.companion(of: key)
        ring.withLock { ring in
            guard ring.current == nil else { return }
            ring.current = Entry(key: key)
            if ring.next == nil, let next { ring.next = Entry(key: next) }
        }
    }

    /// Next keys made for initial keys, by the initial key's `kid` (process-wide).
    private static let companions = Mutex<[String: SigningKey]>([:])
    /// Published JWKs (with `x5c`), by `kid` (process-wide): a certificate is made once a key.
    private static let published = Mutex<[String: JSONValue]>([:])

    static func companion(of key: SigningKey) throws -> SigningKey {
        if let known = companions.withLock({ $0[key.kid] }) { return known }
        let made = try SigningKey.generate()
        return companions.withLock { table in
            if let known = table[key.kid] { return known }
            table[key.kid] = made
            return made
        }
    }

    /// The key that signs new tokens.
    var current: SigningKey {
        ring.withLock { ring in
            guard let current = ring.current else { preconditionFailure("KeyRing used before an Issuer installed its key") }
            return current.key
        }
    }

    /// The published key whose `kid` is `kid` (a rotated-out key until it retires).
    func key(kid: String, now: Date) -> SigningKey? {
        ring.withLock { ring in
            let entries = [ring.current, ring.next].compactMap { $0 } + ring.previous.filter { ($0.retireAt ?? now) > now }
            return entries.first { $0.key.kid == kid }?.key
        }
    }

    /// The JWKS `keys`: next, current, then the rotated-out keys not yet retired.
    func publishedKeys(now: Date) throws -> [JSONValue] {
        try ensureNext()
        var entries: [Entry] = ring.withLock { ring in
            ring.previous.removeAll { ($0.retireAt ?? now) <= now }
            return [ring.next, ring.current].compactMap { $0 } + ring.previous
        }
        for index in entries.indices where entries[index].jwk == nil {
            entries[index].jwk = try Self.publishedJWK(entries[index].key, now: now)
            let made = entries[index]
            ring.withLock { ring in
                if ring.next?.key.kid == made.key.kid { ring.next?.jwk = made.jwk }
                if ring.current?.key.kid == made.key.kid { ring.current?.jwk = made.jwk }
                if let at = ring.previous.firstIndex(where: { $0.key.kid == made.key.kid }) { ring.previous[at].jwk = made.jwk }
            }
        }
        return entries.compactMap(\.jwk)
    }

    /// Rotates: the next key signs from now on, a new next key is published, the old signing
    /// key stays published for `retainSeconds`. Returns (new signing kid, retired kid).
    func rotate(now: Date, retainSeconds: Int) throws -> (current: String, previous: String) {
        try ensureNext()
        let fresh = Entry(key: try SigningKey.generate())
        return ring.withLock { ring in
            let promoted = ring.next ?? fresh
            let old = ring.current.map { entry -> Entry in
                var entry = entry
                entry.retireAt = now.addingTimeInterval(TimeInterval(retainSeconds))
                return entry
            }
            if let old { ring.previous.insert(old, at: 0) }
            ring.current = promoted
            ring.next = fresh
            return (promoted.key.kid, old?.key.kid ?? "")
        }
    }

    /// Generates the next key when there is none yet (outside the lock: RSA is slow).
    private func ensureNext() throws {
        guard ring.withLock({ $0.next == nil }) else { return }
        let next = Entry(key: try SigningKey.generate())
        ring.withLock { ring in if ring.next == nil { ring.next = next } }
    }

    /// `key`'s JWK with `x5c` (a self-signed certificate, DER base64) and `x5t` (its SHA-1, base64url).
    static func publishedJWK(_ key: SigningKey, now: Date) throws -> JSONValue {
        if let known = published.withLock({ $0[key.kid] }) { return known }
        let jwk = try makePublishedJWK(key, now: now)
        published.withLock { $0[key.kid] = jwk }
        return jwk
    }

    private static func makePublishedJWK(_ key: SigningKey, now: Date) throws -> JSONValue {
        let certificateKey = Certificate.PrivateKey(key.privateKey)
        let name = try DistinguishedName { CommonName("accounts.mockauth.local") }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: certificateKey.publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(5 * 365 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions(),
            issuerPrivateKey: certificateKey)
        let der = try certificate.serializeAsPEM().derBytes
        var jwk = key.jwk.objectValue ?? JSONObject()
        jwk["x5t"] = .string(Base64URL.encode(Insecure.SHA1.hash(data: der)))
        jwk["x5c"] = [.string(Data(der).base64EncodedString())]
        return .object(jwk)
    }
}
