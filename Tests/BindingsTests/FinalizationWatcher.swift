import Bindings
import CGLib

/// Learns when a GObject is finalised, through a GLib weak reference.
final class FinalizationWatcher {
    private(set) var isFinalized = false

    init(_ object: ObjectRef) {
        g_object_weak_ref(object.objectPointer, { data, _ in
            Unmanaged<FinalizationWatcher>.fromOpaque(data!).takeRetainedValue().isFinalized = true
        }, Unmanaged.passRetained(self).toOpaque())
    }
}

/// A fresh plain GObject (not floating), owned by the caller.
func newPlainObject() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(g_object_new_with_properties(tc_type_object(), 0, nil, nil)!)
}

/// A fresh GInitiallyUnowned, which starts with a floating reference.
func newFloatingObject() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(g_object_new_with_properties(g_initially_unowned_get_type(), 0, nil, nil)!)
}
