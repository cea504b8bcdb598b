import CGtk

/// GtkInscription: one line of plain text, cut with "…" when too long. It
/// asks for its size from the font alone, never laying the text out to
/// measure it, so a list binding rows as it scrolls pays only for drawing
/// them (see docs/BENCHMARKS.md). Never parsed as markup.
@MainActor
public final class Inscription: Widget {
    public init() {
        super.init(gtk_inscription_new(nil), transfer: .full)
        gtk_inscription_set_min_lines(opaque, 1)
        gtk_inscription_set_nat_lines(opaque, 1)
        gtk_inscription_set_text_overflow(opaque, GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END)
        gtk_inscription_set_xalign(opaque, 0)
    }

    public var text: String {
        get { gtk_inscription_get_text(opaque).map { String(cString: $0) } ?? "" }
        set { gtk_inscription_set_text(opaque, newValue) }
    }
}
