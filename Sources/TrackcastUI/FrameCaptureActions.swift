import Bindings
import Foundation
import TrackcastCore

/// "Copy Frame" and "Save Frame…": the video frame on screen, at the
/// video's own size, as an image on the clipboard or a PNG file chosen
/// through the file chooser (the portal's inside a sandbox).
/// `app.save-frame-to(s)` saves to a path without asking: the chooser's
/// answer goes through it, and scripts and tests can use it directly.
@MainActor
final class FrameCaptureActions {
    private let application: Application
    private let nowPlaying: NowPlaying
    private let window: @MainActor () -> MainWindow?

    init(application: Application, nowPlaying: NowPlaying, window: @escaping @MainActor () -> MainWindow?) {
        self.application = application
        self.nowPlaying = nowPlaying
        self.window = window
    }

    func install() {
        application.addAction(SimpleAction(name: "copy-frame") { [unowned self] in copy() })
        application.addAction(SimpleAction(name: "save-frame") { [unowned self] in chooseFile() })
        application.addAction(SimpleAction(name: "save-frame-to", parameterType: "s") { [unowned self] parameter in
            if let path = parameter.string { save(to: URL(fileURLWithPath: path)) }
        })
    }

    /// The frame as PNG, or nil (said in a toast) when there is none.
    private func capture() async -> Data? {
        guard let video = nowPlaying.video else { return nil }
        let size = nowPlaying.videoSize ?? video.frame.map { ($0.width, $0.height) } ?? (0, 0)
        do {
            return try await video.currentFrameAsPNG(width: size.0, height: size.1)
        } catch {
            Log.debug("frame capture failed: \(error)")
            window()?.showToast(tr("No video frame to capture"))
            return nil
        }
    }

    private func copy() {
        Task {
            guard let png = await capture(), let window = window() else { return }
            if Clipboard.setImage(png: png, for: window.applicationWindow) { Log.debug("frame copied: \(png.count) bytes") }
        }
    }

    private func chooseFile() {
        let name = (nowPlaying.item?.title ?? tr("Frame")) + ".png"
        let chooser = FileChooser(title: tr("Save Frame"), transientFor: window()?.applicationWindow,
                                  acceptLabel: tr("Save"), cancelLabel: tr("Cancel"), savingAs: name)
        chooser.choose { [application] uri in
            guard let uri, let url = URL(string: uri), url.isFileURL else { return }
            application.activateAction("save-frame-to", parameter: Variant(url.path))
        }
    }

    private func save(to file: URL) {
        Task {
            guard let png = await capture() else { return }
            do {
                // Off the main thread: the folder may be on a slow disk or a network share.
                try await Task.detached { try png.write(to: file, options: .atomic) }.value
                Log.debug("frame saved: \(file.path) (\(png.count) bytes)")
            } catch {
                window()?.showToast(String(format: tr("Cannot save the frame: %@"), error.localizedDescription))
            }
        }
    }
}
