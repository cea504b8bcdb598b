import Bindings
import Foundation
import TrackcastCore

extension LoadedAsset {
    /// What a prerolled playbin itself tells about its item: a source that
    /// cannot preroll, or a stream demuxer without a length, is live;
    /// anything else is a file, its length known or not. The tracks are
    /// kinds only, and the tags and Vorbis comment chapters those the
    /// pipeline has posted so far: the probe's details come later (`merging`).
    @MainActor
    init(prerolled playbin: Playbin, isLiveSource: Bool, streamDemuxer: String?, tags: MediaTags) {
        let duration = playbin.duration
        let isLive = isLiveSource || (duration == nil && streamDemuxer != nil)
        let count = { (property: String) in Int((try? playbin.property(property, as: Int32.self)) ?? 0) }
        let tracks = Array(repeating: Track(kind: .audio), count: count("n-audio"))
            + Array(repeating: Track(kind: .video), count: count("n-video"))
            + Array(repeating: Track(kind: .subtitle), count: count("n-text"))
        self.init(duration: isLive ? nil : duration, isLive: isLive,
                  isSeekable: !isLive && playbin.seeking?.isSeekable == true, tracks: tracks,
                  title: tags.title, artist: tags.artist, album: tags.album,
                  artwork: tags.image.map { Data($0) }, artworkType: tags.imageType,
                  chapters: VorbisCommentChapters.chapters(from: tags.comments, duration: isLive ? nil : duration),
                  id3ChapterFrames: tags.id3ChapterFrames)
    }

    /// The probe's findings under what the playing pipeline already knows:
    /// the pipeline's length, liveness and seeking stay (it has read further
    /// than the probe), the probe adds codec details, tags, cover art and
    /// chapters.
    public func merging(probe: LoadedAsset) -> LoadedAsset {
        var merged = probe
        merged.duration = isLive ? nil : duration ?? probe.duration
        merged.isLive = isLive
        merged.isSeekable = isSeekable
        merged.title = probe.title ?? title
        merged.artist = probe.artist ?? artist
        merged.album = probe.album ?? album
        if probe.artwork == nil {
            merged.artwork = artwork
            merged.artworkType = artworkType
        }
        if probe.chapters.isEmpty { merged.chapters = chapters }
        if probe.id3ChapterFrames.isEmpty { merged.id3ChapterFrames = id3ChapterFrames }
        if probe.tracks.isEmpty { merged.tracks = tracks }
        return merged
    }
}
