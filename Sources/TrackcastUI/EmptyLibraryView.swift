import Bindings
import TrackcastCore

/// What the library shows before the first subscription.
@MainActor
struct EmptyLibraryView {
    let page: StatusPage

    init() {
        page = StatusPage(iconName: "application-rss+xml-symbolic", title: tr("No podcasts yet"),
                          description: tr("Subscribe to a show by its feed address, or bring your subscriptions from another app"))
        let buttons = Box(.vertical, spacing: 12)
        buttons.align(horizontal: .center, vertical: .start)
        let discover = Button(label: tr("_Discover Podcasts"), action: "app.discover")
        discover.addCSSClass("pill")
        discover.addCSSClass("suggested-action")
        let add = Button(label: tr("_Add Podcast…"), action: "app.add-podcast")
        add.addCSSClass("pill")
        let importSubscriptions = Button(label: tr("_Import Subscriptions…"), action: "app.import-opml")
        importSubscriptions.addCSSClass("pill")
        let sample = Button(label: tr("_Try the Sample Show"), action: "app.try-sample-show")
        sample.addCSSClass("pill")
        buttons.append(discover)
        buttons.append(add)
        buttons.append(importSubscriptions)
        buttons.append(sample)
        page.setChild(buttons)
    }
}
