import CCurl
import Foundation

/// A floor's client: one libcurl easy handle reused for every request (so the connection
/// is reused), options set per request, nothing of ours in between. Blocking: call it from
/// ``BlockingQueue``, never from the cooperative pool.
final class RawCurl: @unchecked Sendable {  // one handle, used from one serial queue at a time
    /// One request as the floor sends it.
    struct Request: Sendable {
        var url: String
        /// nil → GET.
        var body: [UInt8]?
        var headers: [String] = []
    }

    /// The answer and how long `curl_easy_perform` took.
    struct Reply: Sendable {
        var status: Int
        var body: [UInt8]
        var elapsed: Duration
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let handle: UnsafeMutableRawPointer
    private let sink = Sink()

    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// A handle for `http://` URLs over loopback TCP, or over the unix socket at `unixSocket`.
    init(unixSocket: String? = nil) {
        handle = curl_easy_init()!
        _ = ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_setopt_string(handle, CURLOPT_PROXY, "")
        if let unixSocket { _ = ccurl_setopt_string(handle, CURLOPT_UNIX_SOCKET_PATH, unixSocket) }
        let write: ccurl_data_callback = { pointer, size, count, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: size * count))
            return size * count
        }
        _ = ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, write)
        _ = ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
    }

    deinit { curl_easy_cleanup(handle) }

    /// Sends `request`; only `curl_easy_perform` is timed.
    func perform(_ request: Request) -> Reply {
        _ = ccurl_setopt_string(handle, CURLOPT_URL, request.url)
        if let body = request.body {
            _ = ccurl_setopt_long(handle, CURLOPT_POST, 1)
            _ = ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = body.withUnsafeBytes { ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)) }
        } else {
            _ = ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        }
        var headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Expect:")
        for header in request.headers { headers = curl_slist_append(headers, header) }
        defer { curl_slist_free_all(headers) }
        _ = ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
        sink.bytes.removeAll(keepingCapacity: true)
        let start = ContinuousClock.now
        let code = curl_easy_perform(handle)
        let elapsed = ContinuousClock.now - start
        precondition(code == CURLE_OK, "raw libcurl request to \(request.url) failed: \(String(cString: curl_easy_strerror(code)))")
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return Reply(status: status, body: sink.bytes, elapsed: elapsed)
    }
}

/// Runs blocking work (libcurl floors, wrk, child processes) on a thread of its own while the
/// caller's task waits, so the cooperative pool keeps serving the in-process servers.
enum BlockingQueue {
    private static let queue = DispatchQueue(label: "compliance-bench.blocking")

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
