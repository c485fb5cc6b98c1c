/// Base64url decoding (RFC 4648 §5) without Foundation.
///
/// Accepts the URL-safe alphabet and, leniently like MSAL, the standard `+` `/`
/// alphabet too; padding is optional. Returns `nil` on any other character or an
/// impossible length.
public enum Base64URL {
    public static func decode(_ text: String) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var paddingSeen = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                paddingSeen += 1
                continue
            }
            guard paddingSeen == 0, let value = sextet(byte) else { return nil }
            sextets.append(value)
        }
        guard paddingSeen <= 2, sextets.count % 4 != 1 else { return nil }
        if paddingSeen > 0, (sextets.count + paddingSeen) % 4 != 0 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 4 <= sextets.count {
            let (a, b, c, d) = (sextets[index], sextets[index + 1], sextets[index + 2], sextets[index + 3])
            output.append(a << 2 | b >> 4)
            output.append(b << 4 | c >> 2)
            output.append(c << 6 | d)
            index += 4
        }
        let rest = sextets.count - index
        if rest >= 2 { output.append(sextets[index] << 2 | sextets[index + 1] >> 4) }
        if rest == 3 { output.append(sextets[index + 1] << 4 | sextets[index + 2] >> 2) }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"), UInt8(ascii: "+"): 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): 63
        default: nil
        }
    }

    /// Encodes without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let b0 = chunk[chunk.startIndex]
            let b1 = chunk.count > 1 ? chunk[chunk.startIndex + 1] : 0
            let b2 = chunk.count > 2 ? chunk[chunk.startIndex + 2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            if chunk.count > 1 { output.append(alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)]) }
            if chunk.count > 2 { output.append(alphabet[Int(b2 & 0x3F)]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
