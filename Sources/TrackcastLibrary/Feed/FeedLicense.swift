import Foundation

/// `podcast:license`: an SPDX identifier or a free name, and where the terms are.
public struct FeedLicense: Sendable, Equatable, Codable {
    public var name: String
    public var url: URL?

    public init(name: String, url: URL? = nil) {
        self.name = name
        self.url = url
    }
}
