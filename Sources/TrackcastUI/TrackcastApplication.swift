import Bindings
import Foundation
import TrackcastCore

/// The GUI process: the application object, its actions and its one window.
/// Everything here lives on the main actor, which the GLib main loop drives.
@MainActor
public final class TrackcastApplication {
    private let application: Application
    private let libraryDirectory: URL
    private var window: MainWindow?

    /// Set by the benchmark: quit as soon as the first frame is on screen.
    private let quitAfterFirstFrame = ProcessInfo.processInfo.environment["TRACKCAST_QUIT_AFTER_FIRST_FRAME"] == "1"

    public init(libraryDirectory: URL) {
        self.libraryDirectory = libraryDirectory
        application = Application(id: AppIdentity.id, handlesOpen: true)
        application.onStartup { [unowned self] in
            installActions()
            prepareLibrary()
        }
        application.onActivate { [unowned self] in presentWindow() }
        application.onOpen { [unowned self] uris in open(uris) }
    }

    /// Runs the GUI until the last window closes; returns the exit status.
    /// When another instance is running, hands `items` to it and returns.
    public func run(items: [String]) -> Int32 {
        MainQueueBridge.install()
        return application.run(arguments: [AppIdentity.executable] + items)
    }

    /// Runs as D-Bus activation asks: registered on the bus, no window until
    /// an activation, an action or files arrive.
    public func runAsService() -> Int32 {
        MainQueueBridge.install()
        return application.run(arguments: [AppIdentity.executable, "--gapplication-service"])
    }

    private func installActions() {
        application.addAction(SimpleAction(name: "add-podcast") { [unowned self] in
            window?.showToast(tr("Adding podcasts by URL is not available yet"))
        })
        application.addAction(SimpleAction(name: "import-opml") { [unowned self] in
            window?.showToast(tr("Importing subscriptions is not available yet"))
        })
        application.addAction(SimpleAction(name: "about") { [unowned self] in showAbout() })
        application.addAction(SimpleAction(name: "quit") { [unowned self] in quit() },
                              accelerators: ["<Control>q"])
        application.setAccelerators(["<Control>w"], forAction: "window.close")
    }

    private func prepareLibrary() {
        let directory = libraryDirectory
        Task {
            do {
                try await Task.detached { try LibraryLocation.prepare(directory) }.value
                Log.debug("library ready at \(directory.path)")
            } catch {
                Log.warning("cannot use the library folder \(directory.path): \(error.localizedDescription)")
                window?.showToast(String(format: tr("Cannot use the library folder %@"), directory.path))
            }
        }
    }

    private func presentWindow() {
        let window = self.window ?? makeWindow()
        window.present()
    }

    private func makeWindow() -> MainWindow {
        let window = MainWindow(application: application)
        window.afterFirstFrame { [unowned self] in
            Log.debug("first frame painted")
            if quitAfterFirstFrame {
                FileHandle.standardOutput.write(Data("first-frame\n".utf8))
                application.quit()
            }
        }
        self.window = window
        return window
    }

    /// Closes the window the way the user would, so it saves its state, then
    /// ends the process.
    private func quit() {
        window?.applicationWindow.close()
        application.quit()
    }

    private func open(_ uris: [String]) {
        Log.debug("open: \(uris.joined(separator: " "))")
        presentWindow()
        window?.showToast(tr("Playing files is not available yet"))
    }

    private func showAbout() {
        let about = AboutWindow(transientFor: window?.applicationWindow, applicationName: AppIdentity.name,
                                applicationIcon: AppIdentity.id, version: AppIdentity.version,
                                developerName: tr("The Trackcast developers"), website: AppIdentity.website,
                                license: .gpl3OrLater)
        about.setDebugInfo("Library: \(libraryDirectory.path)")
        about.present()
    }
}
