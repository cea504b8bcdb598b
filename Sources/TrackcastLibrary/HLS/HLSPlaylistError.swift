/// Why a media playlist was not read.
public enum HLSPlaylistError: Error, Equatable, Sendable {
    /// It does not start with `#EXTM3U`.
    case notAPlaylist
    /// Larger than `HLSMediaPlaylist.maximumSize`.
    case tooLarge(bytes: Int)
}
