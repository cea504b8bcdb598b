import CCurl

extension HTTPError {
    /// libcurl's reason for a transfer that failed by itself (not stopped by
    /// a timeout, a receiver or a cancel: those are recorded before libcurl
    /// hears of them), in words a person can act on.
    init(_ code: CURLcode) {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .network("The server's name could not be found.")
        case CURLE_COULDNT_CONNECT:
            self = .network("Could not connect to the server.")
        case CURLE_OPERATION_TIMEDOUT:
            self = .timeout(.total)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            self = .network("The connection was lost.")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED:
            self = .network("A secure connection to the server could not be made.")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_UNSUPPORTED_PROTOCOL, CURLE_HTTP2,
             CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_RANGE_ERROR:
            self = .network("The server's response could not be read.")
        case CURLE_URL_MALFORMAT:
            self = .network("The address is not a valid web address.")
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR:
            self = .cancelled
        default:
            self = .network("Network error \(code.rawValue).")
        }
    }
}
