import CGtk

/// GtkLabel showing plain text. Text is never parsed as Pango markup, so a
/// feed's title with `<` or `&` shows as written and cannot inject markup.
@MainActor
public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(gtk_label_new(nil), transfer: .full)
        gtk_label_set_use_markup(label, 0)
        self.text = text
    }

    private var label: OpaquePointer { opaque }

    public var text: String {
        get { String(cString: gtk_label_get_text(label)) }
        set { gtk_label_set_text(label, newValue) }
    }

    /// Shows Pango markup, which must come from `SafeMarkup` (feeds' text
    /// never reaches here unsanitised); `text` then reads it without markup.
    /// Setting `text` again turns markup off. Links open in the browser.
    public func setMarkup(_ markup: String) { gtk_label_set_markup(label, markup) }

    /// Left-aligned text (right-aligned in right-to-left locales).
    public func alignStart() { gtk_label_set_xalign(label, 0) }

    /// Wraps at word boundaries (characters when a word is too long).
    public func wrap(lines: Int32 = -1) {
        gtk_label_set_wrap(label, 1)
        gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD_CHAR)
        if lines > 0 {
            gtk_label_set_lines(label, lines)
            gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_END)
        }
    }

    /// One line, cut with "…" at the end when too long.
    public func ellipsize() { gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_END) }

    /// Lets the user select and copy the text, e.g. a show's description.
    public func makeSelectable() { gtk_label_set_selectable(label, 1) }

    /// A selectable label that takes the keyboard focus selects all its text,
    /// and keeps it selected when the focus moves on.
    public func clearSelection() { gtk_label_select_region(label, 0, 0) }

    /// Whether any of a selectable label's text is selected.
    public var hasSelection: Bool {
        var start: Int32 = 0, end: Int32 = 0
        return gtk_label_get_selection_bounds(label, &start, &end) != 0 && start != end
    }

    /// Digits of equal width, so a ticking time does not jitter.
    public func useTabularNumbers() { addCSSClass("numeric") }
}
