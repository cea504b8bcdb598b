import CGLib

/// A stateless, parameterless GSimpleAction, the unit of every user command.
@MainActor
public final class SimpleAction: ObjectRef {
    public init(name: String, _ activate: @escaping @MainActor () -> Void) {
        super.init(g_simple_action_new(name, nil), transfer: .full)
        onSignal("activate") { (_: UnsafeMutableRawPointer?) in activate() }
    }

    /// An action that takes a parameter of GVariant type `parameterType`
    /// (e.g. "x" for an ID), as `app.open-show(int64 3)` or over D-Bus
    /// `org.gtk.Actions.Activate "open-show" [<int64 3>] {}`.
    public init(name: String, parameterType: String, _ activate: @escaping @MainActor (Variant) -> Void) {
        let type = g_variant_type_new(parameterType)
        defer { g_variant_type_free(type) }
        super.init(g_simple_action_new(name, type), transfer: .full)
        onSignal("activate") { (parameter: UnsafeMutableRawPointer?) in
            guard let parameter else { return }
            activate(Variant(borrowing: OpaquePointer(parameter)))
        }
    }

    public var name: String { String(cString: g_action_get_name(opaque)) }

    public var isEnabled: Bool {
        get { g_action_get_enabled(opaque) != 0 }
        set { g_simple_action_set_enabled(opaque, newValue ? 1 : 0) }
    }

    public func activate() { g_action_activate(opaque, nil) }

    public func activate(with parameter: Variant) { g_action_activate(opaque, parameter.pointer) }
}
