import Bindings
import CGLib
import CGtk
import Foundation
import Testing

/// A payload whose release a test can watch.
private final class Episode {
    let title: String
    init(_ title: String) { self.title = title }
}

private final class TitleRow: ListRowController {
    let label = Label()
    var root: Widget { label }
    func bind(_ payload: Episode) { label.text = payload.title }
    func unbind() { label.text = "" }
}

@MainActor
@Suite("List models")
struct ListStoreTests {
    @Test("items carry their payloads in order")
    func payloadsInOrder() {
        let store = ListStore<Episode>()
        store.replaceAll(with: ["one", "two", "three"].map(Episode.init))
        #expect(store.count == 3)
        #expect(store.payload(at: 1)?.title == "two")
        #expect(store.payload(at: 3) == nil)
        store.splice(at: 1, removing: 1, inserting: [Episode("zwei"), Episode("deux")])
        #expect((0..<store.count).compactMap { store.payload(at: $0)?.title } == ["one", "zwei", "deux", "three"])
    }

    @Test("a payload is released when its item leaves the store")
    func payloadReleasedOnRemoval() {
        let store = ListStore<Episode>()
        var episode: Episode? = Episode("kept by the store")
        weak let weakEpisode = episode
        store.append(episode!)
        episode = nil
        #expect(weakEpisode != nil, "the item holds its payload")
        store.remove(at: 0)
        #expect(weakEpisode == nil, "removing the item releases the payload")
    }

    @Test("replacing and dropping the store release every payload")
    func payloadsReleasedWithStore() {
        var store: ListStore<Episode>? = ListStore()
        var first: Episode? = Episode("first")
        var second: Episode? = Episode("second")
        weak let weakFirst = first
        weak let weakSecond = second
        store!.replaceAll(with: [first!])
        first = nil
        store!.replaceAll(with: [second!])
        #expect(weakFirst == nil)
        second = nil
        #expect(weakSecond != nil)
        store = nil
        #expect(weakSecond == nil)
    }

    @Test("value payloads round-trip")
    func valuePayloads() {
        let store = ListStore<Int>()
        store.replaceAll(with: Array(0..<1000))
        #expect(store.payload(at: 999) == 999)
        #expect(ListStore<String>.payload(ofItem: UnsafeMutableRawPointer(g_list_model_get_item(store.listModel, 5)!).releasingAfterUse()) == nil,
                "a payload of another type is not misread")
    }
}

@MainActor
@Suite("List widgets", .serialized)
struct ListWidgetTests {
    init() throws {
        try #require(Toolkit.initialize(), "no display: run under xvfb-run")
    }

    /// Runs the GLib main context until `condition` holds or `timeout` passes.
    private func pump(timeout: Duration = .seconds(10), until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            while MainContext.dispatchPending() {}
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// `page` in a stack beside another page, showing `shown`, in a window on screen.
    private func presentInPages(_ page: Widget, showing shown: String, title: String) -> (ViewStack, Bindings.Window) {
        let pages = ViewStack()
        pages.add(page, name: "list")
        pages.add(Label("elsewhere"), name: "other")
        pages.visibleChildName = shown
        let window = Window(title: title)
        window.setDefaultSize(width: 300, height: 400)
        window.setChild(pages)
        window.present()
        return (pages, window)
    }

    @Test("a list view binds only the rows on screen, and activation passes the position")
    func bindsVisibleRowsOnly() async throws {
        let store = ListStore<Episode>()
        store.replaceAll(with: (0..<10_000).map { Episode("Episode \($0)") })
        let factory = ListItemFactory { TitleRow() }
        let list = ListView(model: store, factory: factory)
        var activated: [Int] = []
        list.onActivate { activated.append($0) }
        let window = Window(title: "list test")
        window.setDefaultSize(width: 300, height: 400)
        window.setChild(ScrolledWindow(child: list))
        window.present()
        defer { window.destroy() }

        let bound = await pump { factory.bindCount > 0 && list.isMapped }
        try #require(bound, "no row was bound")
        // Let layout settle, then count. GTK 4.8's list views keep up to
        // about 200 rows around the visible ones; the point is that they never
        // bind the whole model.
        _ = await pump(timeout: .milliseconds(300)) { false }
        #expect(factory.bindCount < 500, "bound \(factory.bindCount) of 10,000 rows")

        emitPosition(on: list, signal: "activate", position: 42)
        #expect(activated == [42])
        #expect(store.payload(at: activated[0])?.title == "Episode 42")
    }

    @Test("a list kept visible only while mapped is hidden with its page and shown again with it")
    func listHiddenWithItsPage() async throws {
        let store = ListStore<Episode>()
        store.replaceAll(with: (0..<1_000).map { Episode("Episode \($0)") })
        let factory = ListItemFactory { TitleRow() }
        let list = ListView(model: store, factory: factory)
        let scrolled = ScrolledWindow(child: list)
        scrolled.showOnlyWhileMapped(list)
        #expect(!list.isVisible, "shown before its page is on screen")
        let (pages, window) = presentInPages(scrolled, showing: "list", title: "hidden list test")
        defer { window.destroy() }

        #expect(await pump { list.isMapped && factory.bindCount > 0 }, "the list never came on screen")
        pages.visibleChildName = "other"
        #expect(await pump { !list.isVisible }, "the list stayed visible behind another page")
        pages.visibleChildName = "list"
        #expect(await pump { list.isVisible && list.isMapped }, "the list did not come back with its page")
    }

    @Test("a list that keeps rows only while mapped drops them behind another page and gets them back where it was")
    func rowsOnlyWhileMapped() async throws {
        let store = ListStore<Episode>()
        store.replaceAll(with: (0..<1_000).map { Episode("Episode \($0)") })
        final class WeakRow { weak var row: TitleRow?; init(_ row: TitleRow) { self.row = row } }
        var made: [WeakRow] = []
        let factory = ListItemFactory { let row = TitleRow(); made.append(WeakRow(row)); return row }
        let list = ListView(model: store, factory: factory)
        list.keepRowsOnlyWhileMapped()
        let scrolled = ScrolledWindow(child: list)
        let (pages, window) = presentInPages(scrolled, showing: "list", title: "rows while mapped test")
        defer { window.destroy() }
        var live: [TitleRow] { made.compactMap(\.row) }
        var shownNumbers: [Int] { live.compactMap { Int($0.label.text.split(separator: " ").last ?? "") } }

        #expect(await pump { list.isMapped && !live.isEmpty }, "no row was made")
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scrolled.widget))
        #expect(await pump { gtk_adjustment_get_upper(adjustment) > 6_000 }, "the list never grew")
        gtk_adjustment_set_value(adjustment, 5_000)
        #expect(await pump { shownNumbers.contains { $0 > 100 } }, "scrolling bound no later row")

        pages.visibleChildName = "other"
        #expect(await pump { live.isEmpty }, "\(live.count) rows stayed alive behind another page")
        pages.visibleChildName = "list"
        #expect(await pump { list.isMapped && !live.isEmpty }, "no row came back with the page")
        #expect(gtk_adjustment_get_value(adjustment) == 5_000, "the scroll position was lost")
        #expect(await pump { shownNumbers.contains { $0 > 100 } }, "the rows came back at the top: \(shownNumbers.sorted().prefix(5))")
    }

    @Test("a list that keeps rows only while mapped makes them again after its Swift wrappers are gone")
    func rowsOnlyWhileMappedOutliveWrappers() async throws {
        final class WeakRow { weak var row: TitleRow?; init(_ row: TitleRow) { self.row = row } }
        var made: [WeakRow] = []
        // Only the scrolled window's wrapper outlives this closure: the list's and the factory's are gone.
        let page: ScrolledWindow = {
            let store = ListStore<Episode>()
            store.replaceAll(with: (0..<300).map { Episode("Episode \($0)") })
            let list = ListView(model: store, factory: ListItemFactory { let row = TitleRow(); made.append(WeakRow(row)); return row })
            list.keepRowsOnlyWhileMapped()
            return ScrolledWindow(child: list)
        }()
        let (pages, window) = presentInPages(page, showing: "other", title: "rows after wrappers test")
        defer { window.destroy() }
        var live: Int { made.count { $0.row != nil } }

        _ = await pump(timeout: .milliseconds(200)) { false }
        #expect(live == 0, "\(live) rows were made behind another page")
        pages.visibleChildName = "list"
        #expect(await pump { live > 0 }, "no row was made when the list came on screen")
    }

    @Test("a leaflet keeps its shadow's parts after its pages, which their restyling at each allocation then spares")
    func leafletShadowAfterPages() {
        let leaflet = Leaflet(canUnfold: false)
        leaflet.append(Label("first"), name: "first")
        leaflet.append(Label("second"), name: "second")
        var names: [String] = []
        var child = gtk_widget_get_first_child(leaflet.widget)
        while let current = child {
            names.append(String(cString: gtk_widget_get_css_name(current)))
            child = gtk_widget_get_next_sibling(current)
        }
        #expect(names.count == 6, "\(names)")
        #expect(Set(names.suffix(4)) == ["dimming", "shadow", "border", "outline"], "the shadow's parts are not last: \(names)")
    }

    @Test("a grid view activates with the tile's position")
    func gridActivation() {
        let store = ListStore<Episode>()
        store.replaceAll(with: [Episode("a"), Episode("b")])
        let grid = GridView(model: store, factory: ListItemFactory { TitleRow() })
        var activated: Int?
        grid.onActivate { activated = $0 }
        emitPosition(on: grid, signal: "activate", position: 1)
        #expect(activated == 1)
    }

    @Test("rows are released with the list")
    func rowsReleasedWithList() async throws {
        weak var weakRow: TitleRow?
        do {
            let store = ListStore<Episode>()
            store.append(Episode("only"))
            let factory = ListItemFactory { () -> TitleRow in
                let row = TitleRow()
                weakRow = row
                return row
            }
            let window = Window(title: "teardown test")
            window.setChild(ListView(model: store, factory: factory))
            window.present()
            _ = await pump { factory.bindCount > 0 }
            #expect(weakRow != nil)
            window.destroy()
        }
        let released = await pump { weakRow == nil }
        #expect(released, "the row controller outlived its list")
    }

    @Test("labels show text literally, never as markup")
    func labelIsPlainText() {
        let label = Label("<b>Tom & Jerry</b>")
        #expect(label.text == "<b>Tom & Jerry</b>")
        #expect((try? label.property("use-markup", as: Bool.self)) == false)
    }

    @Test("a message dialog reports the response chosen")
    func messageDialogResponse() {
        let dialog = MessageDialog(transientFor: nil, heading: "Add", body: "")
        dialog.addResponse("cancel", label: "Cancel")
        dialog.addResponse("add", label: "Add", appearance: .suggested)
        var responses: [String] = []
        dialog.onResponse { responses.append($0) }
        emitString(on: dialog, signal: "response", "add")
        #expect(responses == ["add"])
        dialog.close()
    }

    @Test("textures decode off the main thread, scaled to fit")
    func textureDecoding() async throws {
        let cover = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/sample/cover.png").standardizedFileURL
        let texture = try await Texture.load(try Data(contentsOf: cover), loader: "png", fitting: 64, maxPixels: 1_000_000)
        #expect(max(texture.width, texture.height) == 64)
        await #expect(throws: GLibError.self) {
            try await Texture.load(Data("not a picture".utf8), loader: "png", fitting: 64, maxPixels: 1_000_000)
        }
    }

    @Test("a texture is decoded by the loader it is given, no other: an XPM handed over as PNG is refused")
    func textureLoaderIsFixed() async throws {
        let xpm = Data("/* XPM */\nstatic char * dot_xpm[] = {\n\"2 2 1 1\",\n\"a c #FF0000\",\n\"aa\",\n\"aa\"};\n".utf8)
        #expect(try Texture.decode(xpm, loader: "xpm", fitting: 8, maxPixels: 100).width == 8, "the XPM itself decodes")
        #expect(throws: GLibError.self) { try Texture.decode(xpm, loader: "png", fitting: 8, maxPixels: 100) }
    }

    @Test("a PNG of 83 bytes declaring 50,000 × 50,000 pixels is refused by its decoder before the pixels are allocated")
    func texturePixelLimit() throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAw1AAAMNQCAYAAABLrz3KAAAAGklEQVR4nO3BAQ0AAADCoPdPbQ8HFAAAAPBuEAAAAUueozwAAAAASUVORK5CYII="))
        let error = try #require(throws: GLibError.self) {
            try Texture.decode(png, loader: "png", fitting: 64, maxPixels: 25_000_000)
        }
        #expect(error.message.contains("50000×50000"), "\(error.message)")
    }

    private func emitPosition(on object: ObjectRef, signal: String, position: UInt32) {
        var values = [GValue(), GValue()]
        g_value_init(&values[0], tc_type_from_instance(object.objectPointer))
        g_value_set_object(&values[0], object.objectPointer)
        g_value_init(&values[1], tc_type_uint())
        g_value_set_uint(&values[1], position)
        g_signal_emitv(&values, g_signal_lookup(signal, tc_type_from_instance(object.objectPointer)), 0, nil)
        for index in values.indices { g_value_unset(&values[index]) }
    }

    private func emitString(on object: ObjectRef, signal: String, _ text: String) {
        var values = [GValue(), GValue()]
        g_value_init(&values[0], tc_type_from_instance(object.objectPointer))
        g_value_set_object(&values[0], object.objectPointer)
        g_value_init(&values[1], tc_type_string())
        g_value_set_string(&values[1], text)
        g_signal_emitv(&values, g_signal_lookup(signal, tc_type_from_instance(object.objectPointer)), 0, nil)
        for index in values.indices { g_value_unset(&values[index]) }
    }
}

private extension UnsafeMutableRawPointer {
    /// Drops the reference `g_list_model_get_item` returned; the store keeps the item alive.
    func releasingAfterUse() -> UnsafeMutableRawPointer {
        g_object_unref(self)
        return self
    }
}
