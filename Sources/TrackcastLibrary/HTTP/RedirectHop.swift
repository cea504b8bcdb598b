import Foundation

/// One redirect a transfer followed.
public struct RedirectHop: Sendable, Equatable {
    public let status: Int
    public let from: URL
    public let to: URL

    public init(status: Int, from: URL, to: URL) {
        self.status = status
        self.from = from
        self.to = to
    }

    /// 301 Moved Permanently and 308 Permanent Redirect: clients should use
    /// the new URL from now on. 302, 303 and 307 are for this request only.
    public var isPermanent: Bool { status == 301 || status == 308 }
}
