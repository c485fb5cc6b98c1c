import CCurl

/// Turns a failed `CURLcode` into an ``HTTPClientError`` a person can act on.
enum CurlErrorMapping {
    static func error(
        for code: CURLcode, detail: String, transfer: CurlTransfer, request: HTTPClientRequest, configuration: HTTPClientConfiguration
    ) -> HTTPClientError {
        let url = request.redactedURL
        let curlText = String(cString: curl_easy_strerror(code))
        let detail = detail.isEmpty ? curlText : detail
        let target = configuration.unixSocketPath.map { "unix socket \($0)" } ?? url
        switch code {
        case CURLE_COULDNT_CONNECT:
            return HTTPClientError(code: .connectionRefused, message: "could not connect to \(target): \(detail); is the server running?", url: url)
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPClientError(code: .timeout, message: "no complete answer from \(target) in time: \(detail)", url: url)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_INVALIDCERTSTATUS:
            let hint = configuration.caFile.map { " (trusted CAs from \($0))" } ?? " (pass the server's CA with a CA file)"
            return HTTPClientError(code: .tls, message: "TLS with \(target) failed: \(detail)\(hint)", url: url)
        case CURLE_WRITE_ERROR where transfer.overflowed, CURLE_FILESIZE_EXCEEDED:
            return HTTPClientError(
                code: .responseTooLarge,
                message: "the response from \(target) is larger than the limit of \(configuration.maxResponseBytes) bytes", url: url)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return HTTPClientError(code: .invalidURL, message: "cannot use URL '\(url)': \(detail)", url: url)
        case CURLE_ABORTED_BY_CALLBACK where transfer.cancelled.isSet:
            return HTTPClientError(code: .cancelled, message: "request to \(target) was cancelled", url: url)
        default:
            return HTTPClientError(code: .transport(Int32(code.rawValue)), message: "request to \(target) failed: \(detail) (\(curlText))", url: url)
        }
    }
}
