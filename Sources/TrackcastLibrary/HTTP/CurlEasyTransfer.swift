import CCurl
import Foundation

/// One hop of a transfer on the client's network thread: a libcurl easy
/// handle set up for an `HTTPRequest`, the response head it is reading, and
/// whether that head is a redirect to follow or the final response.
///
/// libcurl's own redirect following is off: each hop is a handle of its own,
/// so that `HTTPTransfer` sees every hop's status and URLs and counts them
/// (301 tells a refresh the feed moved; 302 does not).
///
/// Used on the network thread only (`CurlMultiLoop`), which also keeps it
/// alive while libcurl holds its address for the callbacks.
final class CurlEasyTransfer {
    let transfer: HTTPTransfer
    let request: HTTPRequest
    /// The `CURL *`.
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var headers: [String: String] = [:]
    private var lastHeaderName: String?
    /// Set once this hop's head turned out to be a redirect that is followed.
    private var redirect: (status: Int, target: URL)?

    /// nil when libcurl cannot make a handle (out of memory).
    init?(_ request: HTTPRequest, for transfer: HTTPTransfer) {
        guard let handle = curl_easy_init() else { return nil }
        self.transfer = transfer
        self.request = request
        self.handle = handle
        configure()
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
    }

    /// The request for the next hop, when this one answered with a redirect.
    var nextHop: HTTPRequest? {
        redirect.map { request.redirected(to: $0.target, status: $0.status) }
    }

    private func configure() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        setString(CURLOPT_URL, request.url.absoluteString)
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        // Advertise and decode what libcurl can (gzip, deflate, br); a
        // caller's own Accept-Encoding header replaces the advertisement.
        setString(CURLOPT_ACCEPT_ENCODING, "")
        trackcast_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        // Through an HTTPS proxy, the proxy's answer to CONNECT would reach
        // the header callback as a head of its own.
        trackcast_curl_set_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // libcurl reads 16 KB at a time by default: a 10 MB feed would be
        // 600 callbacks and as many small appends.
        trackcast_curl_set_long(handle, CURLOPT_BUFFERSIZE, 256 * 1024)
        trackcast_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, curlBodyCallback)
        trackcast_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        trackcast_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        trackcast_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)

        // "Expect:" stops libcurl waiting up to a second for a 100 Continue
        // before a large POST body; servers that do not send one are common.
        var lines = ["Expect:"]
        for (name, value) in request.headers where Self.isSafe(name) && Self.isSafe(value) {
            // "Name;" sends an empty header; "Name:" would remove it.
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        for line in lines { headerList = curl_slist_append(headerList, line) }
        trackcast_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headerList)

        switch (request.method, request.body) {
        case ("GET", nil):
            trackcast_curl_set_long(handle, CURLOPT_HTTPGET, 1)
        case ("HEAD", _):
            trackcast_curl_set_long(handle, CURLOPT_NOBODY, 1)
        case (let method, let body):
            if method != "POST" { setString(CURLOPT_CUSTOMREQUEST, method) }
            let body = body ?? Data()
            trackcast_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies, so the Data need not outlive this call;
                // an empty body still needs a non-null pointer.
                trackcast_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1))
            }
        }
    }

    /// libcurl copies string options.
    private func setString(_ option: CURLoption, _ value: String) {
        _ = value.withCString { trackcast_curl_set_pointer(handle, option, $0) }
    }

    /// A header name or value that cannot end the line it is on: a value taken
    /// from a server (an ETag) must not smuggle in headers of its own.
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// One line of a response head, with its line end; `false` stops the transfer.
    /// Read by bytes: Foundation's trimming took 1.5 % of a refresh's CPU.
    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.starts(with: "HTTP/".utf8) {
            // A new head: a 100 Continue's, or the response's own.
            headers = [:]
            lastHeaderName = nil
            return true
        }
        let content = Self.trimmed(bytes[...])
        if content.isEmpty { return endOfHead() }
        if let first = bytes.first, first == 0x20 || first == 0x09, let name = lastHeaderName {
            // An obsolete folded line continues the header above it.
            headers[name, default: ""] += " " + String(decoding: content, as: UTF8.self)
            return true
        }
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return true }
        let name = String(decoding: Self.trimmed(content[..<colon]).lazy.map(Self.asciiLowercased), as: UTF8.self)
        let value = String(decoding: Self.trimmed(content[(colon + 1)...]), as: UTF8.self)
        if let earlier = headers[name] {
            headers[name] = earlier + ", " + value
        } else {
            headers[name] = value
        }
        lastHeaderName = name
        return true
    }

    /// `text` without the spaces, tabs and line ends around it.
    private static func trimmed(_ text: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return text[text.startIndex..<text.startIndex] }
        return text[first...last]
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    private func endOfHead() -> Bool {
        var code = 0
        trackcast_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &code)
        let status = Int(code)
        if (100..<200).contains(status) { return true }
        if [301, 302, 303, 307, 308].contains(status), let target = redirectTarget() {
            guard ["http", "https"].contains(target.scheme?.lowercased() ?? "") else {
                transfer.fail(HTTPError.network("The server redirected to an address that is not on the web."))
                return false
            }
            guard transfer.shouldFollow(status: status, from: request.url, to: target) else { return false }
            redirect = (status, target)
            return true
        }
        return transfer.begin(status: status, url: request.url, headers: headers)
    }

    /// The redirect's Location, made absolute against the request's URL.
    /// (libcurl works it out too, but only once the hop is over.) URL
    /// percent-encodes what a URL cannot hold (spaces, non-ASCII), as
    /// browsers and libcurl do.
    private func redirectTarget() -> URL? {
        guard let location = headers["location"], !location.isEmpty else { return nil }
        return URL(string: location, relativeTo: request.url)?.absoluteURL
    }

    /// A piece of the body; `false` stops the transfer. A redirect's body is dropped.
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if redirect != nil { return true }
        return transfer.receive(bytes)
    }
}

/// The C callbacks: `context` is the `CurlEasyTransfer` the handle was set up by.
private let curlBodyCallback: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let easy = Unmanaged<CurlEasyTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return easy.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let curlHeaderCallback: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let easy = Unmanaged<CurlEasyTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return easy.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
