/// How long a transfer may take.
public struct HTTPTimeouts: Sendable, Equatable {
    /// Until the response's head arrives: name lookup, connecting, TLS, any
    /// redirects and the server's think time. A host that is down or drops
    /// packets fails here instead of holding a refresh for the whole total.
    public var connect: Duration
    /// The whole transfer, body included.
    public var total: Duration
    /// The longest the body may pause with no bytes arriving; `nil` for no
    /// limit but the total. What bounds a long download, whose total must
    /// allow for slow links.
    public var idle: Duration?

    public init(connect: Duration, total: Duration, idle: Duration? = nil) {
        self.connect = connect
        self.total = total
        self.idle = idle
    }
}
