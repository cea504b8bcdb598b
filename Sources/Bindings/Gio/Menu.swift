import CGLib

/// A GMenu model: items bound to detailed action names.
public final class Menu: ObjectRef {
    public init() { super.init(g_menu_new(), transfer: .full) }

    public func append(_ label: String, action: String) {
        g_menu_append(opaque, label, action)
    }

    /// An item without an action, shown greyed out: a note, not a command.
    public func appendNote(_ label: String) {
        g_menu_append(opaque, label, nil)
    }

    public func appendSection(_ section: Menu) {
        g_menu_append_section(opaque, nil, section.pointer(as: GMenuModel.self))
    }

    /// A section under a heading, e.g. "Subtitles" above its tracks.
    public func appendSection(_ section: Menu, label: String) {
        g_menu_append_section(opaque, label, section.pointer(as: GMenuModel.self))
    }

    /// Every item's label in order, sections' items in place: what a person
    /// reads in the menu, for checks of what it offers.
    public var labels: [String] { Self.labels(of: pointer(as: GMenuModel.self)) }

    private static func labels(of model: UnsafeMutablePointer<GMenuModel>) -> [String] {
        (0..<g_menu_model_get_n_items(model)).flatMap { index -> [String] in
            if let section = g_menu_model_get_item_link(model, index, "section") {
                defer { g_object_unref(section) }
                return labels(of: section)
            }
            guard let label = g_menu_model_get_item_attribute_value(model, index, "label", nil) else { return [] }
            return [Variant(taking: label).string ?? ""]
        }
    }
}
