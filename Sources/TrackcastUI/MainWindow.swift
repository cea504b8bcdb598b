import Bindings
import TrackcastCore

/// The main window: a header bar over the current view, under a toast overlay.
@MainActor
final class MainWindow {
    let applicationWindow: ApplicationWindow
    private let toasts: ToastOverlay

    init(application: Application) {
        applicationWindow = ApplicationWindow(application: application)
        applicationWindow.title = AppIdentity.name
        let windowState = WindowState()
        windowState.restore(applicationWindow)
        // Weak: the handler is owned by the window itself.
        applicationWindow.onCloseRequest { [weak applicationWindow] in
            if let applicationWindow { windowState.save(applicationWindow) }
            return false
        }
        if AppIdentity.isDevelopment { applicationWindow.addCSSClass("devel") }

        let headerBar = HeaderBar()
        headerBar.packStart(Button(iconName: "list-add-symbolic", tooltip: tr("Add Podcast"), action: "app.add-podcast"))
        headerBar.packEnd(MenuButton(iconName: "open-menu-symbolic", tooltip: tr("Main Menu"), menu: Self.primaryMenu()))

        let content = Box(.vertical)
        content.append(headerBar)
        let emptyLibrary = EmptyLibraryView()
        emptyLibrary.page.align(horizontal: .fill, vertical: .fill)
        emptyLibrary.page.expandVertically()
        content.append(emptyLibrary.page)

        toasts = ToastOverlay(child: content)
        applicationWindow.setContent(toasts)
    }

    private static func primaryMenu() -> Menu {
        let podcasts = Menu()
        podcasts.append(tr("_Add Podcast…"), action: "app.add-podcast")
        podcasts.append(tr("_Import Subscriptions…"), action: "app.import-opml")
        let application = Menu()
        application.append(tr("_About Trackcast"), action: "app.about")
        application.append(tr("_Quit"), action: "app.quit")
        let menu = Menu()
        menu.appendSection(podcasts)
        menu.appendSection(application)
        return menu
    }

    func present() { applicationWindow.present() }

    func showToast(_ title: String) { toasts.showToast(title) }

    /// Calls `handler` once the window's first frame has been painted.
    func afterFirstFrame(_ handler: @escaping @MainActor () -> Void) {
        applicationWindow.onSignal("map") { [weak applicationWindow] in applicationWindow?.afterFirstPaint(handler) }
    }
}
