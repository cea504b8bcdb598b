import CGLib
import Synchronization

/// Object wrappers alive in the process, for leak checks in tests.
private let liveWrappers = Atomic<Int>(0)

/// A Swift wrapper around one GObject. It holds exactly one strong reference,
/// taken when it is created and dropped in `deinit`, so the object lives at
/// least as long as the wrapper. Several wrappers may share an object; each
/// holds its own reference.
///
/// Not `Sendable`: most GObjects (every GTK one) belong to the main thread.
open class ObjectRef {
    public let objectPointer: UnsafeMutablePointer<GObject>

    /// How many wrappers exist right now. Each holds a reference, so a
    /// wrapper kept by mistake keeps its GObject alive too.
    public static var liveWrapperCount: Int { liveWrappers.load(ordering: .relaxed) }

    /// How a C function handed the object over.
    public enum Transfer {
        /// The caller already owns a reference (C "transfer full", e.g. the
        /// result of a `_new` function): the wrapper takes it over. A floating
        /// reference is sunk so the wrapper owns a normal one.
        case full
        /// The reference is borrowed (C "transfer none"): the wrapper adds its own.
        case none
    }

    public init(_ pointer: UnsafeMutableRawPointer, transfer: Transfer) {
        objectPointer = pointer.assumingMemoryBound(to: GObject.self)
        Self.takeReference(on: objectPointer, transfer: transfer)
    }

    /// For C types whose struct is private (imported as `OpaquePointer`).
    public init(_ pointer: OpaquePointer, transfer: Transfer) {
        objectPointer = UnsafeMutablePointer<GObject>(pointer)
        Self.takeReference(on: objectPointer, transfer: transfer)
    }

    private static func takeReference(on object: UnsafeMutablePointer<GObject>, transfer: Transfer) {
        liveWrappers.add(1, ordering: .relaxed)
        switch transfer {
        case .full:
            // Sinking a floating ref converts it into the one we own; on a
            // non-floating object we own already, there is nothing to add.
            if g_object_is_floating(object) != 0 {
                g_object_ref_sink(object)
            }
        case .none:
            g_object_ref_sink(object)
        }
    }

    deinit {
        liveWrappers.subtract(1, ordering: .relaxed)
        g_object_unref(objectPointer)
    }

    /// The object as an opaque pointer, for C API whose struct is private.
    public var opaque: OpaquePointer { OpaquePointer(objectPointer) }

    /// The object as a pointer to its C struct, for calling C API.
    public func pointer<T>(as type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: T.self)
    }

    /// The GType name of the object's class, e.g. "GtkButton".
    public var typeName: String {
        String(cString: g_type_name(tc_type_from_instance(objectPointer)))
    }

    /// The current reference count; for tests and diagnostics only.
    public var referenceCount: UInt32 {
        objectPointer.pointee.ref_count
    }
}
