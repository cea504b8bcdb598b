import Bindings
import CGLib
import CGtk
import Testing

/// Signals whose C handlers take more than a pointer: each trampoline must
/// read its arguments as GLib pushes them. Emitted here with g_signal_emitv,
/// as GTK would emit them.
@MainActor
@Suite("Signal shapes", .serialized)
struct SignalShapeTests {
    init() throws {
        try #require(Toolkit.initialize(), "no display: run under xvfb-run")
    }

    @Test("a drop of files reaches the handler as URIs, a drop of text as text")
    func drops() throws {
        var dropped: [DropTarget.Dropped] = []
        let target = DropTarget { item in
            dropped.append(item)
            return true
        }

        var files = GValue()
        g_value_init(&files, gdk_file_list_get_type())
        let file = g_file_new_for_path("/tmp/episode one.mp3")
        let list = g_slist_prepend(nil, gpointer(file))
        g_value_take_boxed(&files, UnsafeRawPointer(gdk_file_list_new_from_list(list)))
        g_slist_free(list)
        g_object_unref(gpointer(file))
        #expect(emitDrop(on: target, &files))
        g_value_unset(&files)

        var text = GValue()
        g_value_init(&text, tc_type_string())
        g_value_set_string(&text, "https://example.org/feed.xml")
        #expect(emitDrop(on: target, &text))
        g_value_unset(&text)

        guard dropped.count == 2, case .uris(let uris) = dropped[0], case .text(let link) = dropped[1] else {
            Issue.record("dropped: \(dropped)")
            return
        }
        #expect(uris == ["file:///tmp/episode%20one.mp3"])
        #expect(link == "https://example.org/feed.xml")
    }

    @Test("a slider reports the value the user moved it to, and code can set it silently")
    func sliderChange() {
        let scale = Scale(accessibleLabel: "Position")
        scale.upperBound = 100
        var moves: [Double] = []
        scale.onUserChange { moves.append($0) }
        scale.value = 10
        #expect(moves.isEmpty, "setting the value from code is no user change")

        var values = [GValue(), GValue(), GValue()]
        g_value_init(&values[0], tc_type_from_instance(scale.objectPointer))
        g_value_set_object(&values[0], scale.objectPointer)
        g_value_init(&values[1], gtk_scroll_type_get_type())
        g_value_set_enum(&values[1], gint(GTK_SCROLL_JUMP.rawValue))
        g_value_init(&values[2], tc_type_double())
        g_value_set_double(&values[2], 42.5)
        var handled = GValue()
        g_value_init(&handled, tc_type_boolean())
        g_signal_emitv(&values, g_signal_lookup("change-value", tc_type_from_instance(scale.objectPointer)), 0, &handled)
        #expect(moves == [42.5])
        #expect(g_value_get_boolean(&handled) == 0, "the slider still moves itself")
        for index in values.indices { g_value_unset(&values[index]) }
        g_value_unset(&handled)
    }

    @Test("an integer argument arrives intact")
    func integerSignal() {
        let chooser = FileChooser(title: "Import", transientFor: nil, acceptLabel: "Import", cancelLabel: "Cancel")
        var received: [Int32] = []
        chooser.onIntegerSignal("response") { received.append($0) }
        var values = [GValue(), GValue()]
        g_value_init(&values[0], tc_type_from_instance(chooser.objectPointer))
        g_value_set_object(&values[0], chooser.objectPointer)
        g_value_init(&values[1], tc_type_int())
        g_value_set_int(&values[1], GTK_RESPONSE_CANCEL.rawValue)
        g_signal_emitv(&values, g_signal_lookup("response", tc_type_from_instance(chooser.objectPointer)), 0, nil)
        #expect(received == [GTK_RESPONSE_CANCEL.rawValue])
        for index in values.indices { g_value_unset(&values[index]) }
    }

    private func emitDrop(on target: DropTarget, _ value: inout GValue) -> Bool {
        var values = [GValue(), GValue(), GValue(), GValue()]
        g_value_init(&values[0], tc_type_from_instance(target.objectPointer))
        g_value_set_object(&values[0], target.objectPointer)
        g_value_init(&values[1], g_value_get_type())
        withUnsafeMutablePointer(to: &value) { g_value_set_boxed(&values[1], $0) }
        g_value_init(&values[2], tc_type_double())
        g_value_init(&values[3], tc_type_double())
        var accepted = GValue()
        g_value_init(&accepted, tc_type_boolean())
        g_signal_emitv(&values, g_signal_lookup("drop", tc_type_from_instance(target.objectPointer)), 0, &accepted)
        defer {
            for index in values.indices { g_value_unset(&values[index]) }
            g_value_unset(&accepted)
        }
        return g_value_get_boolean(&accepted) != 0
    }
}
