import Foundation

/// An episode's download as the downloader reports it.
public struct DownloadRecord: Sendable, Equatable {
    public var state: DownloadState
    /// The local file, once one exists.
    public var file: URL?
    public var bytes: Int64
    /// `nil` until the server says.
    public var total: Int64?
    /// Why it failed, for `.failed`.
    public var error: String?
    public var updated: Date

    public init(state: DownloadState, file: URL? = nil, bytes: Int64 = 0, total: Int64? = nil,
                error: String? = nil, updated: Date = Date()) {
        self.state = state
        self.file = file
        self.bytes = bytes
        self.total = total
        self.error = error
        self.updated = updated
    }
}
