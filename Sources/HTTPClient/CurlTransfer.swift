import CCurl
import Foundation
import Synchronization

/// The mutable state of one transfer, reached from libcurl's C callbacks through the
/// `userdata` pointer (`Unmanaged`), never through a capturing closure.
final class CurlTransfer {
    let maxResponseBytes: Int
    var body: [UInt8] = []
    var headerLines: [String] = []
    var overflowed = false
    /// Set from another thread when the awaiting task is cancelled; read by the progress callback.
    let cancelled: CancellationFlag

    init(maxResponseBytes: Int, cancelled: CancellationFlag) {
        self.maxResponseBytes = maxResponseBytes
        self.cancelled = cancelled
    }

    /// Headers of the final response: a new status line starts a new block (redirects, 100-continue).
    var headers: HTTPClientHeaders {
        var headers = HTTPClientHeaders()
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            headers.add(name: name, value: value)
        }
        return headers
    }
}

/// A flag the cancellation handler sets and the transfer thread reads.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// CURLOPT_WRITEFUNCTION: appends body bytes; returning less than given aborts (size cap).
let curlWriteBody: ccurl_data_callback = { pointer, size, count, userdata in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
    let length = size * count
    if transfer.body.count + length > transfer.maxResponseBytes {
        transfer.overflowed = true
        return 0
    }
    if let pointer, length > 0 {
        pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
    }
    return length
}

/// CURLOPT_HEADERFUNCTION: collects header lines of the last response only.
let curlWriteHeader: ccurl_data_callback = { pointer, size, count, userdata in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
    let length = size * count
    guard let pointer, length > 0 else { return length }
    let line = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        transfer.headerLines.removeAll()
    } else if line.contains(":") {
        transfer.headerLines.append(line)
    }
    return length
}

/// CURLOPT_XFERINFOFUNCTION: a non-zero return aborts the transfer when the task was cancelled.
let curlProgress: ccurl_xferinfo_callback = { userdata, _, _, _, _ in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
    return transfer.cancelled.isSet ? 1 : 0
}
