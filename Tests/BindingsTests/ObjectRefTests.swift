import Bindings
import CGLib
import Testing

@Suite("Object ownership")
struct ObjectRefTests {
    @Test("a wrapper adopts a full reference and drops it in deinit")
    func adoptsFullReference() {
        var wrapper: ObjectRef? = ObjectRef(newPlainObject(), transfer: .full)
        let watcher = FinalizationWatcher(wrapper!)
        #expect(wrapper!.referenceCount == 1)
        wrapper = nil
        #expect(watcher.isFinalized)
    }

    @Test("a floating reference is sunk, so the wrapper owns exactly one")
    func sinksFloatingReference() {
        let raw = newFloatingObject()
        #expect(g_object_is_floating(raw) != 0)
        var wrapper: ObjectRef? = ObjectRef(raw, transfer: .full)
        let watcher = FinalizationWatcher(wrapper!)
        #expect(g_object_is_floating(raw) == 0)
        #expect(wrapper!.referenceCount == 1)
        wrapper = nil
        #expect(watcher.isFinalized)
    }

    @Test("a borrowed reference gets a reference of its own")
    func addsReferenceToBorrowed() {
        let raw = newPlainObject()
        var wrapper: ObjectRef? = ObjectRef(raw, transfer: .none)
        let watcher = FinalizationWatcher(wrapper!)
        #expect(wrapper!.referenceCount == 2)
        wrapper = nil
        #expect(!watcher.isFinalized, "the C owner's reference keeps it alive")
        g_object_unref(raw)
        #expect(watcher.isFinalized)
    }

    @Test("two wrappers of one object each hold a reference")
    func wrappersShareObject() {
        let first = ObjectRef(newPlainObject(), transfer: .full)
        var second: ObjectRef? = ObjectRef(first.objectPointer, transfer: .none)
        #expect(first.referenceCount == 2)
        second = nil
        #expect(first.referenceCount == 1)
        #expect(first.typeName == "GObject")
        _ = second
    }
}
