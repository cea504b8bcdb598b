import Foundation
import TrackcastCore

/// What a file or link handed to the app is, judged by its scheme and name.
enum OpenedItem: Equatable {
    case subscriptionList
    case feed
    case media
    /// A web address with no telling name: try it as a feed, play it if it is none.
    case feedOrMedia
    /// A scheme Trackcast neither subscribes to nor plays (`v4l2:`, `udp:`,
    /// `fd:`…): GStreamer would open a camera or a socket for it.
    case refused

    private static let feedSchemes: Set = ["feed", "itpc", "pcast", "podcast", "itms-podcast", "itmss"]
    private static let feedExtensions: Set = ["rss", "xml", "atom"]

    init(_ url: URL) {
        let scheme = url.scheme?.lowercased() ?? ""
        let pathExtension = url.pathExtension.lowercased()
        if Self.feedSchemes.contains(scheme) {
            self = .feed
        } else if !PlayableURI.schemes.contains(scheme) {
            self = .refused
        } else if pathExtension == "opml" {
            self = .subscriptionList
        } else if Self.feedExtensions.contains(pathExtension) {
            self = .feed
        } else if scheme == "http" || scheme == "https", pathExtension.isEmpty {
            self = .feedOrMedia
        } else {
            self = .media
        }
    }

    private static let videoExtensions: Set = ["webm", "mkv", "mp4", "m4v", "mov", "avi", "ogv", "mpg", "mpeg", "ts"]

    /// What an opened media file probably holds, judged by its name: a video
    /// shows the video view (and its message, should it fail) before the
    /// probe has looked inside; the probe has the last word.
    static func mediaKind(of url: URL) -> PlaybackItem.Kind {
        videoExtensions.contains(url.pathExtension.lowercased()) ? .video : .unknown
    }
}
