import CCurl
import Synchronization

/// One libcurl easy handle. It keeps its connections alive between transfers, so the
/// pool hands the same handle out again to reuse them.
///
/// `@unchecked Sendable`: a handle is used by one thread at a time — checked out of the
/// pool for exactly one blocking transfer, then returned.
final class EasyHandle: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    init() {
        CurlGlobal.ensureInitialized()
        guard let handle = curl_easy_init() else {
            fatalError("curl_easy_init returned NULL: libcurl could not allocate a handle")
        }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// Runs one transfer to completion on the calling thread (it blocks).
    func perform(_ request: HTTPClientRequest, configuration: HTTPClientConfiguration, cancelled: CancellationFlag) -> Result<HTTPClientResponse, HTTPClientError> {
        curl_easy_reset(handle)  // keeps live connections, drops every option
        let transfer = CurlTransfer(maxResponseBytes: configuration.maxResponseBytes, cancelled: cancelled)
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorPointer in
            if let failure = configure(request, configuration, context.toOpaque(), &headerList, errorPointer.baseAddress!) {
                return failure
            }
            return curl_easy_perform(handle)
        }
        guard code == CURLE_OK else {
            let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(CurlErrorMapping.error(
                for: code, detail: detail, transfer: transfer, request: request, configuration: configuration))
        }
        var status = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var connects = 0
        ccurl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        return .success(HTTPClientResponse(status: status, headers: transfer.headers, body: transfer.body, connectCount: connects))
    }

    /// Sets every option of the transfer; returns the first failing code.
    private func configure(
        _ request: HTTPClientRequest, _ configuration: HTTPClientConfiguration, _ context: UnsafeMutableRawPointer,
        _ headerList: inout UnsafeMutablePointer<curl_slist>?, _ errorBuffer: UnsafeMutablePointer<CChar>
    ) -> CURLcode? {
        var codes: [CURLcode] = []
        func set(_ option: CURLoption, _ value: Int) { codes.append(ccurl_setopt_long(handle, option, value)) }
        func set(_ option: CURLoption, _ value: String) { codes.append(ccurl_setopt_string(handle, option, value)) }

        codes.append(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        set(CURLOPT_URL, request.url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.milliseconds)
        set(CURLOPT_TIMEOUT_MS, (request.timeout ?? configuration.totalTimeout).milliseconds)
        set(CURLOPT_PROXY, configuration.proxy ?? "")
        if let socket = configuration.unixSocketPath { set(CURLOPT_UNIX_SOCKET_PATH, socket) }
        if let caFile = configuration.caFile { set(CURLOPT_CAINFO, caFile) }
        // Verification is never switched off (a private CA goes in caFile).
        set(CURLOPT_SSL_VERIFYPEER, 1)
        set(CURLOPT_SSL_VERIFYHOST, 2)
        if configuration.followRedirects {
            set(CURLOPT_FOLLOWLOCATION, 1)
            set(CURLOPT_MAXREDIRS, 5)
        }
        codes.append(ccurl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxResponseBytes)))

        switch request.method {
        case .get: set(CURLOPT_HTTPGET, 1)
        case .head: set(CURLOPT_NOBODY, 1)
        case .post: set(CURLOPT_POST, 1)
        default: set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        if let body = request.body {
            codes.append(ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS: libcurl keeps its own copy, our buffer may die after the call.
            codes.append(body.withUnsafeBytes { raw in
                ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            })
        }

        for field in request.headers { headerList = curl_slist_append(headerList, "\(field.name): \(field.value)") }
        headerList = curl_slist_append(headerList, "Expect:")  // no 100-continue round trip
        codes.append(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList))

        codes.append(ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
        codes.append(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        codes.append(ccurl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        codes.append(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        codes.append(ccurl_setopt_xferinfo_callback(handle, curlProgress))
        codes.append(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context))
        set(CURLOPT_NOPROGRESS, 0)
        return codes.first { $0 != CURLE_OK }
    }
}

/// `curl_global_init` must run once before any other libcurl call, on one thread.
enum CurlGlobal {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    static func ensureInitialized() {
        precondition(initialized, "curl_global_init failed: libcurl cannot be used in this process")
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 (libcurl reads 0 as "no timeout").
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
