import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// Where library commands show their dialogs and toasts.
@MainActor
protocol CommandWindowHost: AnyObject {
    /// The window if it exists, for toasts that must not open it (a failed
    /// refresh while playing in the background).
    var currentWindow: MainWindow? { get }
    /// Presents the window, making it if needed, for commands the user sees through.
    @discardableResult
    func presentWindow() -> MainWindow
}

/// What the library's actions do: subscribing (by address, the sample show,
/// a subscription list), refreshing, unsubscribing, downloads and played
/// flags, with the dialogs they ask through and the toasts they end in.
@MainActor
final class LibraryCommands {
    private let library: LibraryModel
    private unowned let host: any CommandWindowHost

    /// Runs after each refresh with how each show went, failed shows or
    /// not (the sync, automatic downloads).
    var afterRefresh: (@MainActor ([ShowRefreshReport]) -> Void)?

    init(library: LibraryModel, host: any CommandWindowHost) {
        self.library = library
        self.host = host
    }

    private func toast(_ message: String) { host.currentWindow?.showToast(message) }

    /// Asks for an address; the answer goes through `app.subscribe`, as a
    /// script's would.
    func addPodcast(subscribe: @escaping @MainActor (String) -> Void) {
        let window = host.presentWindow()
        AddPodcastDialog(transientFor: window.applicationWindow, subscribe: subscribe).present()
    }

    /// Subscribes to what a person typed or pasted: a feed's address or a
    /// podcast link.
    func subscribe(address: String) {
        guard let url = FeedAddress.url(from: address) else {
            toast(tr("That is not a feed address"))
            return
        }
        subscribe(url, orElse: { [weak self] error in
            let failed = String(format: tr("Cannot add the podcast at %@"), url.absoluteString)
            self?.toast(FailureText.subscription(error).map { "\(failed): \($0)" } ?? failed)
        })
    }

    /// Subscribes to a show found in a directory and stays where the user
    /// is, so more can be added from the same results; the window hears
    /// how it ended.
    func subscribeFromDirectory(address: String) {
        guard let url = FeedAddress.url(from: address), !url.isFileURL else {
            toast(tr("That is not a feed address"))
            return
        }
        Task {
            do {
                let id = try await library.subscribe(feedURL: url)
                let title = library.show(id)?.title ?? url.absoluteString
                host.currentWindow?.directorySubscriptionEnded(address, succeeded: true)
                toast(String(format: tr("Subscribed to “%@”"), title))
            } catch is LibraryUnavailable {
                host.currentWindow?.directorySubscriptionEnded(address, succeeded: false)
            } catch {
                Log.warning("cannot subscribe to \(url.absoluteString): \(error)")
                host.currentWindow?.directorySubscriptionEnded(address, succeeded: false)
                let failed = String(format: tr("Cannot add the podcast at %@"), url.absoluteString)
                toast(FailureText.subscription(error).map { "\(failed): \($0)" } ?? failed)
            }
        }
    }

    func trySampleShow() {
        guard let url = SampleShow.feedURL() else {
            toast(tr("The sample show is not installed"))
            return
        }
        subscribe(url, orElse: { [weak self] _ in self?.toast(tr("The sample show is not installed")) })
    }

    /// Subscribes and opens the show; `orElse` runs when `url` is no feed
    /// or cannot be fetched.
    func subscribe(_ url: URL, orElse failed: @escaping @MainActor (any Error) -> Void) {
        Task {
            do {
                openShow(try await library.subscribe(feedURL: url))
            } catch is LibraryUnavailable {
                return
            } catch {
                Log.warning("cannot subscribe to \(url.absoluteString): \(error)")
                failed(error)
            }
        }
    }

    /// Refreshes every show, with `action` greyed out meanwhile; the shows
    /// that failed are announced if `announcesFailures`.
    func refresh(disabling action: SimpleAction?, announcesFailures: Bool = true) {
        action?.isEnabled = false
        Task {
            defer { action?.isEnabled = true }
            do {
                let reports = try await library.refreshAll()
                afterRefresh?(reports)
                let failures = reports.filter(\.isFailure).count
                if failures > 0, announcesFailures {
                    toast(String(format: trn("%d show could not be refreshed", "%d shows could not be refreshed",
                                             failures), failures))
                }
            } catch is LibraryUnavailable {
                return
            } catch {
                Log.warning("cannot refresh: \(error)")
                toast(tr("Cannot refresh the podcasts"))
            }
        }
    }

    func chooseSubscriptionList() {
        let window = host.presentWindow()
        let chooser = FileChooser(title: tr("Import Subscriptions"), transientFor: window.applicationWindow,
                                  acceptLabel: tr("_Import"), cancelLabel: tr("_Cancel"))
        chooser.addFilter(name: tr("Subscription Lists (OPML)"), patterns: ["*.opml", "*.xml"],
                          mimeTypes: ["text/x-opml", "text/x-opml+xml"])
        chooser.choose { [weak self] uri in
            if let uri, let url = URL(string: uri) { self?.importSubscriptions(from: url) }
        }
    }

    func importSubscriptions(from file: URL) {
        Task {
            do {
                let added = try await library.importSubscriptions(from: file)
                toast(String(format: trn("Added %d podcast", "Added %d podcasts", added), added))
            } catch is LibraryUnavailable {
                return
            } catch {
                Log.warning("cannot import \(file.path): \(error)")
                toast(String(format: tr("Cannot import the subscriptions in %@"), file.lastPathComponent))
            }
        }
    }

    func openShow(_ id: ShowID) {
        let window = host.presentWindow()
        guard let show = library.show(id) else {
            Log.debug("no \(id) to show")
            return
        }
        window.openShow(show)
    }

    func confirmUnsubscribe(_ id: ShowID) {
        guard let show = library.show(id) else { return }
        let window = host.presentWindow()
        let dialog = MessageDialog(transientFor: window.applicationWindow,
                                   heading: String(format: tr("Unsubscribe from “%@”?"),
                                                   show.title ?? show.feedURL.absoluteString),
                                   body: tr("The show’s episodes, listening progress and downloads will be removed"))
        dialog.addResponse("cancel", label: tr("_Cancel"))
        dialog.addResponse("unsubscribe", label: tr("_Unsubscribe"), appearance: .destructive)
        dialog.setDefaultResponse("cancel", closeResponse: "cancel")
        dialog.onResponse { [weak self] response in
            guard response == "unsubscribe" else { return }
            self?.unsubscribe(show)
        }
        dialog.present()
        Log.debug("asking to unsubscribe \(id)")
    }

    private func unsubscribe(_ show: Show) {
        host.currentWindow?.showLibrary()
        Task {
            do {
                try await library.unsubscribe(show.id)
            } catch {
                Log.warning("cannot unsubscribe \(show.id): \(error)")
                toast(tr("Cannot unsubscribe from the show"))
            }
        }
    }

    func download(_ id: EpisodeID) {
        Task {
            guard let episode = await library.episode(id) else { return }
            do {
                try await library.download(id, show: episode.showID) { error in
                    FailureText.download(error) ?? tr("The download failed.")
                }
            } catch {
                Log.warning("cannot download \(id): \(error)")
                // A download stopped on purpose needs no message.
                if (error as? DownloadError)?.kind == .cancelled { return }
                let title = episode.title ?? tr("Untitled episode")
                if let reason = FailureText.download(error) {
                    toast(String(format: tr("Cannot download “%@”: %@"), title, reason))
                } else {
                    toast(String(format: tr("Cannot download “%@”"), title))
                }
            }
        }
    }

    func cancelDownload(_ id: EpisodeID) {
        Task {
            do {
                try await library.cancelDownload(id)
            } catch {
                Log.warning("cannot cancel the download of \(id): \(error)")
            }
        }
    }

    func deleteDownload(_ id: EpisodeID) {
        Task {
            guard let episode = await library.episode(id) else { return }
            do {
                try await library.deleteDownload(id, show: episode.showID)
            } catch {
                Log.warning("cannot delete the download of \(id): \(error)")
                toast(tr("Cannot delete the download"))
            }
        }
    }

    func setPlayed(_ id: EpisodeID, _ played: Bool) {
        Task { await library.setPlayed(id, played) }
    }
}
