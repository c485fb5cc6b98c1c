/// Entra's error codes as people read them in a message (`AADSTS50126: Error validating
/// credentials…`): a sign-in page that refuses a person names its code only in its text.
public enum AADSTSCodes {
    private static let prefix = Array("AADSTS".utf8)

    /// Every `AADSTS` code in `text`, in order, without repeats (`AADSTS` then 1 to 9 ASCII digits).
    public static func codes(in text: String) -> [Int64] {
        let bytes = Array(text.utf8)
        var found: [Int64] = []
        var index = 0
        while index + prefix.count <= bytes.count {
            guard bytes[index..<index + prefix.count].elementsEqual(prefix) else {
                index += 1
                continue
            }
            index += prefix.count
            var end = index
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            if (1...9).contains(end - index), let code = Int64(String(decoding: bytes[index..<end], as: UTF8.self)), !found.contains(code) {
                found.append(code)
            }
            index = end
        }
        return found
    }
}
