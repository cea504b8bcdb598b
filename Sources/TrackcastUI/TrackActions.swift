import Bindings
import Foundation
import TrackcastCore

/// The commands that choose what of a video plays: `audio-track(i)`,
/// `subtitle-track(i)` (-1 turns subtitles off), `load-subtitles` (a file
/// chooser) and `subtitle-file(s)` (a subtitle file's URI, what the
/// chooser's answer activates). The two track actions are stateful: their
/// state is the track the pipeline reports playing, so the video controls'
/// menu checks it, and a D-Bus client can read it.
@MainActor
final class TrackActions {
    private let application: Application
    private let nowPlaying: NowPlaying
    private let window: @MainActor () -> MainWindow?
    private var audio: SimpleAction?
    private var subtitle: SimpleAction?
    private var shown: (audio: Int32, subtitle: Int32)?

    init(application: Application, nowPlaying: NowPlaying, window: @escaping @MainActor () -> MainWindow?) {
        self.application = application
        self.nowPlaying = nowPlaying
        self.window = window
    }

    func install() {
        let audio = SimpleAction(name: "audio-track", parameterType: "i", state: Variant(Int32(-1))) { [unowned self] in
            if let index = $0.int32, index >= 0 { nowPlaying.selectAudioTrack(Int(index)) }
        }
        let subtitle = SimpleAction(name: "subtitle-track", parameterType: "i", state: Variant(Int32(-1))) { [unowned self] in
            if let index = $0.int32 { nowPlaying.selectSubtitleTrack(index >= 0 ? Int(index) : nil) }
        }
        application.addAction(audio)
        application.addAction(subtitle)
        self.audio = audio
        self.subtitle = subtitle
        application.addAction(SimpleAction(name: "load-subtitles") { [unowned self] in chooseSubtitles() })
        application.addAction(SimpleAction(name: "subtitle-file", parameterType: "s") { [unowned self] in
            guard let text = $0.string, let url = URL(string: text), url.isFileURL else { return }
            nowPlaying.loadSubtitles(url)
        })
        nowPlaying.observe { [unowned self] in follow(nowPlaying.tracks) }
    }

    /// The actions' states follow what the pipeline plays.
    private func follow(_ tracks: TrackSelection) {
        let current = (Int32(tracks.currentAudio ?? -1), Int32(tracks.currentSubtitle ?? -1))
        guard shown.map({ $0 != current }) ?? true else { return }
        shown = current
        audio?.setState(Variant(current.0))
        subtitle?.setState(Variant(current.1))
    }

    private func chooseSubtitles() {
        let chooser = FileChooser(title: tr("Load Subtitles"), transientFor: window()?.applicationWindow,
                                  acceptLabel: tr("_Load"), cancelLabel: tr("_Cancel"))
        chooser.addFilter(name: tr("Subtitles (SubRip, WebVTT)"), patterns: ["*.srt", "*.vtt", "*.SRT", "*.VTT"],
                          mimeTypes: ["application/x-subrip", "text/vtt"])
        chooser.choose { [application] uri in
            if let uri { application.activateAction("subtitle-file", parameter: Variant(uri)) }
        }
    }
}
