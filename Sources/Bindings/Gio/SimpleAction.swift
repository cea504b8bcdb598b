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

    /// A stateful action whose state is one of its parameters, e.g. the
    /// track playing (`app.audio-track`, state `int32 1`): menu items
    /// naming it with a target show as radio items, the one equal to the
    /// state checked. Activating it only calls `activate`; the owner sets
    /// the state (`setState`) to what actually happened.
    public init(name: String, parameterType: String, state: Variant, _ activate: @escaping @MainActor (Variant) -> Void) {
        let type = g_variant_type_new(parameterType)
        defer { g_variant_type_free(type) }
        super.init(g_simple_action_new_stateful(name, type, state.pointer), transfer: .full)
        onSignal("activate") { (parameter: UnsafeMutableRawPointer?) in
            guard let parameter else { return }
            activate(Variant(borrowing: OpaquePointer(parameter)))
        }
    }

    /// Sets a stateful action's state, which menus and D-Bus clients see.
    public func setState(_ state: Variant) { g_simple_action_set_state(opaque, state.pointer) }

    public var name: String { String(cString: g_action_get_name(opaque)) }

    public var isEnabled: Bool {
        get { g_action_get_enabled(opaque) != 0 }
        set { g_simple_action_set_enabled(opaque, newValue ? 1 : 0) }
    }

    public func activate() { g_action_activate(opaque, nil) }

    public func activate(with parameter: Variant) { g_action_activate(opaque, parameter.pointer) }
}
