import Bindings
import TrackcastCore

/// The player bar's sleep timer button: its choices in a menu, highlighted
/// while a timer is set.
@MainActor
final class SleepTimerMenu {
    let root: MenuButton

    init(timer: SleepTimer) {
        let choices = Menu()
        for minutes in [15, 30, 45, 60] {
            choices.append(String(format: trn("%d Minute", "%d Minutes", minutes), minutes), action: "app.sleep-timer('\(minutes)')")
        }
        choices.append(tr("End of Episode"), action: "app.sleep-timer('end-of-episode')")
        choices.append(tr("End of Chapter"), action: "app.sleep-timer('end-of-chapter')")
        let changes = Menu()
        changes.append(tr("Five More Minutes"), action: "app.sleep-timer-extend")
        changes.append(tr("Turn Off"), action: "app.sleep-timer('off')")
        let menu = Menu()
        menu.appendSection(choices)
        menu.appendSection(changes)
        root = MenuButton(iconName: "weather-clear-night-symbolic", tooltip: tr("Sleep Timer"), menu: menu)
        root.addCSSClass("flat")
        root.align(horizontal: .center, vertical: .center)
        timer.observe { [root, unowned timer] in
            if timer.mode == nil { root.removeCSSClass("accent") } else { root.addCSSClass("accent") }
        }
    }
}
