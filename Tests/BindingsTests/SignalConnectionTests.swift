import Bindings
import CGLib
import Testing

/// Something a handler closure captures, to see when the closure is freed.
private final class Capture {}

@MainActor
@Suite("Signal connections")
struct SignalConnectionTests {
    @Test("a connected handler runs on emission")
    func handlerRuns() {
        var activations = 0
        let action = SimpleAction(name: "count") { activations += 1 }
        action.activate()
        action.activate()
        #expect(activations == 2)
    }

    @Test("the closure box is released when its object is finalised")
    func closureReleasedWithObject() {
        var object: ObjectRef? = ObjectRef(g_simple_action_new("watched", nil), transfer: .full)
        let watcher = FinalizationWatcher(object!)
        var capture: Capture? = Capture()
        weak let weakCapture = capture
        object!.onSignal("activate") { [capture] (_: UnsafeMutableRawPointer?) in _ = capture }
        capture = nil
        #expect(weakCapture != nil, "the connection keeps its closure alive")
        object = nil
        #expect(watcher.isFinalized)
        #expect(weakCapture == nil, "finalising the object releases the closure")
    }

    @Test("disconnecting releases the closure and stops the handler")
    func disconnectReleases() {
        let object = ObjectRef(g_simple_action_new("disconnected", nil), transfer: .full)
        var capture: Capture? = Capture()
        weak let weakCapture = capture
        var calls = 0
        let connection = object.onSignal("activate") { [capture] (_: UnsafeMutableRawPointer?) in
            _ = capture
            calls += 1
        }
        capture = nil
        connection.disconnect()
        #expect(weakCapture == nil)
        g_action_activate(object.opaque, nil)
        #expect(calls == 0)
        connection.disconnect()  // a second disconnect is harmless
    }

    @Test("a boolean-returning handler's answer reaches the emitter")
    func booleanReturn() {
        let application = ObjectRef(g_application_new("org.trackcast.SignalTest", G_APPLICATION_NON_UNIQUE),
                                    transfer: .full)
        var asked = 0
        application.onQuerySignal("name-lost") {
            asked += 1
            return true
        }
        #expect(emitBoolean(application, signal: "name-lost") == true)
        #expect(asked == 1)
    }

    /// Emits a parameterless signal that returns a gboolean, through g_signal_emitv.
    private func emitBoolean(_ object: ObjectRef, signal: String) -> Bool {
        var instance = GValue()
        g_value_init(&instance, tc_type_from_instance(object.objectPointer))
        g_value_set_object(&instance, object.objectPointer)
        var returned = GValue()
        g_value_init(&returned, tc_type_boolean())
        let signalID = g_signal_lookup(signal, tc_type_from_instance(object.objectPointer))
        g_signal_emitv(&instance, signalID, 0, &returned)
        let answer = g_value_get_boolean(&returned) != 0
        g_value_unset(&instance)
        g_value_unset(&returned)
        return answer
    }
}
