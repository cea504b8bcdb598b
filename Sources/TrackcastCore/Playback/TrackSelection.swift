import Foundation

/// The audio and subtitle tracks of the item playing, and which of them
/// play: what the video controls' track menu offers. Indices are the
/// pipeline's own (playbin's `current-audio`, `current-text`).
public struct TrackSelection: Sendable, Equatable {
    public struct Track: Sendable, Equatable {
        /// ISO 639 code, as the container or the subtitle file's name says.
        public var languageCode: String?
        /// The language in the user's words ("English", "Englisch").
        public var languageName: String?
        /// The container's name for the track ("Commentary").
        public var title: String?
        /// A subtitle file beside the media or loaded by hand, not inside the media.
        public var isExternal: Bool
        /// The subtitle file's name, for an external track.
        public var fileName: String?

        public init(languageCode: String? = nil, languageName: String? = nil, title: String? = nil,
                    isExternal: Bool = false, fileName: String? = nil) {
            self.languageCode = languageCode
            self.languageName = languageName
            self.title = title
            self.isExternal = isExternal
            self.fileName = fileName
        }

        /// What the menu calls it: "English", "English – Commentary",
        /// "Commentary", or "Track 2" when the media says nothing (`number`
        /// counts from 1).
        public func label(number: Int) -> String {
            let language = languageName ?? languageCode
            let title = title.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            switch (language, title) {
            case let (language?, title?) where title.caseInsensitiveCompare(language) != .orderedSame:
                return "\(language) – \(title)"
            case let (language?, _): return language
            case let (nil, title?): return title
            case (nil, nil): return String(format: tr("Track %d"), number)
            }
        }
    }

    public var audio: [Track]
    public var subtitles: [Track]
    /// The audio track that plays; nil before the pipeline has chosen.
    public var currentAudio: Int?
    /// The subtitle track shown; nil when subtitles are off or there are none.
    public var currentSubtitle: Int?

    public init(audio: [Track] = [], subtitles: [Track] = [], currentAudio: Int? = nil, currentSubtitle: Int? = nil) {
        self.audio = audio
        self.subtitles = subtitles
        self.currentAudio = currentAudio
        self.currentSubtitle = currentSubtitle
    }

    public static let none = TrackSelection()

    /// Whether there is anything to choose: two audio tracks, or any subtitles.
    public var offersChoice: Bool { audio.count > 1 || !subtitles.isEmpty }

    /// One line for the debug log the tests read:
    /// "audio 1 of 2 [English; Track 2], subtitles off of 1 [French (file)]".
    public var summary: String {
        func names(_ tracks: [Track]) -> String {
            tracks.enumerated().map { $1.label(number: $0 + 1) + ($1.isExternal ? " (file)" : "") }
                .joined(separator: "; ")
        }
        let audioPart = "audio \(currentAudio.map(String.init) ?? "none") of \(audio.count) [\(names(audio))]"
        return audioPart + ", subtitles \(currentSubtitle.map(String.init) ?? "off") of \(subtitles.count) [\(names(subtitles))]"
    }
}
