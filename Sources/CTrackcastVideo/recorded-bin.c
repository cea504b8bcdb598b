#include "trackcast-video.h"

#include <gtk/gtk.h>

/* GTK 4.8's cairo renderer draws a frame by replaying the window's whole
 * node tree, clipped to what changed: for a video frame, every node of the
 * header and the player bar too (117 nodes a frame in the main window,
 * icons converted into new images, text shaped into glyph runs), though
 * none of them lands inside the clip. A cairo node is one bounds check
 * when it lies outside the clip, and cairo replays only the recorded
 * operations that meet the clip when it does not. So under the cairo
 * renderer the bin draws its child's nodes into a recording once, each
 * time the child changes (GTK asks the bin again only then), and GTK keeps
 * that. Other renderers get the child's nodes as they are. */
struct _TcRecordedBin {
    GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE(TcRecordedBin, tc_recorded_bin, GTK_TYPE_WIDGET)

static gboolean drawn_by_cairo(GtkWidget *widget) {
    GtkNative *native = gtk_widget_get_native(widget);
    GskRenderer *renderer = native != NULL ? gtk_native_get_renderer(native) : NULL;
    return renderer != NULL && GSK_IS_CAIRO_RENDERER(renderer);
}

static void recorded_bin_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
    GtkWidget *child = gtk_widget_get_first_child(widget);
    if (child == NULL) return;
    if (!drawn_by_cairo(widget)) {
        gtk_widget_snapshot_child(widget, child, snapshot);
        return;
    }
    GtkSnapshot *child_snapshot = gtk_snapshot_new();
    gtk_widget_snapshot_child(widget, child, child_snapshot);
    GskRenderNode *node = gtk_snapshot_free_to_node(child_snapshot);
    if (node == NULL) return;
    graphene_rect_t bounds;
    gsk_render_node_get_bounds(node, &bounds);
    cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &bounds);
    gsk_render_node_draw(node, cr);
    cairo_destroy(cr);
    gsk_render_node_unref(node);
}

static void tc_recorded_bin_dispose(GObject *object) {
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(object))) != NULL) gtk_widget_unparent(child);
    G_OBJECT_CLASS(tc_recorded_bin_parent_class)->dispose(object);
}

static void tc_recorded_bin_class_init(TcRecordedBinClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = tc_recorded_bin_dispose;
    GTK_WIDGET_CLASS(klass)->snapshot = recorded_bin_snapshot;
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BIN_LAYOUT);
    /* A wrapper only, as a box is to assistive technologies. */
    gtk_widget_class_set_accessible_role(GTK_WIDGET_CLASS(klass), GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void tc_recorded_bin_init(TcRecordedBin *self) {}

GtkWidget *tc_recorded_bin_new(GtkWidget *child) {
    GtkWidget *bin = g_object_new(TC_TYPE_RECORDED_BIN, NULL);
    gtk_widget_set_parent(child, bin);
    return bin;
}
