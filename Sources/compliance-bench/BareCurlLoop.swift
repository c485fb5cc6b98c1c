import CCurl
import Foundation

/// The floor: sequential POSTs on one reused libcurl easy handle, options set once,
/// run on a thread of its own (it blocks).
enum BareCurlLoop {
    static func run(url: String, body: [UInt8], iterations: Int) async -> Samples {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: measure(url: url, body: body, iterations: iterations))
            }
            thread.start()
        }
    }

    private final class Sink {
        var bytes = 0
    }

    private static func measure(url: String, body: [UInt8], iterations: Int) -> Samples {
        let handle = curl_easy_init()!
        defer { curl_easy_cleanup(handle) }
        let sink = Sink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        let write: ccurl_data_callback = { _, size, count, userdata in
            Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue().bytes += size * count
            return size * count
        }
        var headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Content-Type: application/x-www-form-urlencoded")
        headers = curl_slist_append(headers, "Expect:")
        defer { curl_slist_free_all(headers) }
        _ = ccurl_setopt_string(handle, CURLOPT_URL, url)
        _ = ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_setopt_string(handle, CURLOPT_PROXY, "")
        _ = ccurl_setopt_long(handle, CURLOPT_POST, 1)
        _ = ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        _ = body.withUnsafeBytes { ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress!)) }
        _ = ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
        _ = ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, write)
        _ = ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
        var samples = Samples()
        let clock = ContinuousClock()
        for _ in 0..<iterations {
            let start = clock.now
            let code = curl_easy_perform(handle)
            samples.append(clock.now - start)
            precondition(code == CURLE_OK, "bare libcurl POST failed: \(String(cString: curl_easy_strerror(code)))")
        }
        return samples
    }
}
