import CGLib

/// A GMenu model: items bound to detailed action names.
public final class Menu: ObjectRef {
    public init() { super.init(g_menu_new(), transfer: .full) }

    public func append(_ label: String, action: String) {
        g_menu_append(opaque, label, action)
    }

    public func appendSection(_ section: Menu) {
        g_menu_append_section(opaque, nil, section.pointer(as: GMenuModel.self))
    }

    /// A section under a heading, e.g. "Subtitles" above its tracks.
    public func appendSection(_ section: Menu, label: String) {
        g_menu_append_section(opaque, label, section.pointer(as: GMenuModel.self))
    }
}
