import Foundation
import TrackcastCore

/// A fingerprint of a fetched feed document: everything parsing depends on.
///
/// Many podcast hosts send neither an ETag nor a Last-Modified, so every
/// refresh brings the whole feed again; when its digest matches the one
/// stored by the last refresh, the refresh is recorded as "not modified"
/// without parsing or comparing a single episode.
///
/// The bytes alone are not enough: relative links resolve against the
/// address the document came from, the HTTP content type can name its
/// encoding, and a newer Trackcast may read more of the same feed, so the
/// address, the content type and the app's version go in too (each release
/// parses every feed once more). A collision (odds about 2⁻⁶⁴) would only
/// delay noticing a changed feed until it changes again.
enum FeedDocumentDigest {
    static func of(_ data: Data, url: URL, contentType: String?, appVersion: String = AppIdentity.version) -> Int64 {
        var hash = FNV1a()
        for part in [appVersion, url.absoluteString, contentType ?? ""] {
            hash.add(part.utf8)
            hash.add([0])
        }
        hash.add(data)
        return hash.signed
    }
}
