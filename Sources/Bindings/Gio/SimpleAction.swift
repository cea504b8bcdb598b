import CGLib

/// A stateless, parameterless GSimpleAction, the unit of every user command.
@MainActor
public final class SimpleAction: ObjectRef {
    public init(name: String, _ activate: @escaping @MainActor () -> Void) {
        super.init(g_simple_action_new(name, nil), transfer: .full)
        onSignal("activate") { (_: UnsafeMutableRawPointer?) in activate() }
    }

    public var name: String { String(cString: g_action_get_name(opaque)) }

    public var isEnabled: Bool {
        get { g_action_get_enabled(opaque) != 0 }
        set { g_simple_action_set_enabled(opaque, newValue ? 1 : 0) }
    }

    public func activate() { g_action_activate(opaque, nil) }
}
