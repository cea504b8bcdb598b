import Bindings
import TrackcastCore

/// Remembers the main window's size and maximized state in GSettings, as
/// GNOME apps do. Without an installed schema (an uninstalled build outside
/// meson-helpers) the window opens at its default size and nothing is saved.
@MainActor
struct WindowState {
    private let settings: Settings?

    init() {
        do {
            settings = try Settings(schemaID: AppIdentity.id)
        } catch {
            Log.debug("window size will not be remembered: \(error)")
            settings = nil
        }
    }

    func restore(_ window: ApplicationWindow) {
        guard let settings,
              let width = try? settings.int(forKey: "window-width"),
              let height = try? settings.int(forKey: "window-height") else {
            window.defaultSize = (960, 680)
            return
        }
        window.defaultSize = (width, height)
        if (try? settings.bool(forKey: "window-maximized")) == true { window.maximize() }
    }

    func save(_ window: ApplicationWindow) {
        guard let settings else { return }
        let size = window.defaultSize
        let maximized = window.isMaximized
        do {
            let saved = try settings.setValue(Variant(size.width), forKey: "window-width")
                && settings.setValue(Variant(size.height), forKey: "window-height")
                && settings.setValue(Variant(maximized), forKey: "window-maximized")
            if !saved { Log.warning("the window size \(size) is outside what the settings schema allows") }
        } catch {
            Log.warning("could not save the window size: \(error)")
        }
    }
}
