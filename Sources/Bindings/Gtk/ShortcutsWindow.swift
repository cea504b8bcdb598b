import CGLib
import CGtk

/// GtkShortcutsWindow listing groups of accelerators. GTK 4.8 builds it
/// only from GtkBuilder XML (adding sections in code came in 4.14), so the
/// XML is generated here from already-translated, escaped strings.
@MainActor
public final class ShortcutsWindow: Widget {
    public struct Shortcut {
        public let title: String
        /// GTK accelerator syntax, e.g. "<Control>comma"; several separated by spaces.
        public let accelerator: String
        public init(title: String, accelerator: String) {
            self.title = title
            self.accelerator = accelerator
        }
    }

    public struct Group {
        public let title: String
        public let shortcuts: [Shortcut]
        public init(title: String, shortcuts: [Shortcut]) {
            self.title = title
            self.shortcuts = shortcuts
        }
    }

    public init(transientFor parent: ApplicationWindow?, groups: [Group]) {
        let xml = Self.builderXML(groups)
        let builder = gtk_builder_new_from_string(xml, -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        let window = gtk_builder_get_object(builder, "shortcuts")!
        super.init(UnsafeMutableRawPointer(window), transfer: .none)
        if let parent { gtk_window_set_transient_for(pointer(as: GtkWindow.self), parent.pointer(as: GtkWindow.self)) }
        gtk_window_set_modal(pointer(as: GtkWindow.self), 1)
    }

    public func present() { gtk_window_present(pointer(as: GtkWindow.self)) }

    static func builderXML(_ groups: [Group]) -> String {
        var xml = """
            <interface><object class="GtkShortcutsWindow" id="shortcuts"><child>\
            <object class="GtkShortcutsSection"><property name="section-name">main</property>
            """
        for group in groups {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escape(group.title))</property>"
            for shortcut in group.shortcuts {
                xml += """
                    <child><object class="GtkShortcutsShortcut">\
                    <property name="title">\(escape(shortcut.title))</property>\
                    <property name="accelerator">\(escape(shortcut.accelerator))</property>\
                    </object></child>
                    """
            }
            xml += "</object></child>"
        }
        return xml + "</object></child></object></interface>"
    }

    private static func escape(_ text: String) -> String {
        let escaped = g_markup_escape_text(text, -1)!
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
