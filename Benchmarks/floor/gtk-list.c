/* The floor for "frame times while scrolling the big show page": the least a
 * C program needs to scroll a lazily bound list of as many rows. A GtkListView
 * over a GtkStringList of N items ("Episode I", N from argv[1]), each row a
 * title and a detail label in a box (the show page's rows have those and
 * three buttons), in a 960x680 window. Prints "first-frame" once the first
 * frame is painted, then "frame-time: MS" for every frame, measured as the app
 * measures it (`Widget.onEveryFrame`): from the frame clock's flush-events, or
 * before-paint when a frame has none, to its after-paint. */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

static gint64 frame_start = -1;
static gboolean painted;

static void
flush_events(GdkFrameClock *clock, gpointer user_data)
{
    (void) clock;
    (void) user_data;
    frame_start = g_get_monotonic_time();
}

static void
before_paint(GdkFrameClock *clock, gpointer user_data)
{
    (void) clock;
    (void) user_data;
    if (frame_start < 0)
        frame_start = g_get_monotonic_time();
}

static void
after_paint(GdkFrameClock *clock, gpointer user_data)
{
    (void) clock;
    (void) user_data;
    if (!painted) {
        painted = TRUE;
        puts("first-frame");
    } else if (frame_start >= 0) {
        printf("frame-time: %.3f\n", (double) (g_get_monotonic_time() - frame_start) / 1000.0);
    }
    frame_start = -1;
    fflush(stdout);
}

static void
on_map(GtkWidget *window, gpointer user_data)
{
    (void) user_data;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    g_signal_connect(clock, "flush-events", G_CALLBACK(flush_events), NULL);
    g_signal_connect(clock, "before-paint", G_CALLBACK(before_paint), NULL);
    g_signal_connect(clock, "after-paint", G_CALLBACK(after_paint), NULL);
}

static void
setup_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
    (void) factory;
    (void) user_data;
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_widget_set_margin_top(box, 10);
    gtk_widget_set_margin_bottom(box, 10);
    gtk_widget_set_margin_start(box, 12);
    gtk_widget_set_margin_end(box, 12);
    GtkWidget *title = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    GtkWidget *details = gtk_label_new("1 December 2026 · 30 min");
    gtk_label_set_xalign(GTK_LABEL(details), 0);
    gtk_box_append(GTK_BOX(box), title);
    gtk_box_append(GTK_BOX(box), details);
    gtk_list_item_set_child(item, box);
}

static void
bind_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
    (void) factory;
    (void) user_data;
    GtkWidget *title = gtk_widget_get_first_child(gtk_list_item_get_child(item));
    gtk_label_set_text(GTK_LABEL(title), gtk_string_object_get_string(gtk_list_item_get_item(item)));
}

int
main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 10000;
    gtk_init();
    GtkStringList *strings = gtk_string_list_new(NULL);
    for (int i = 0; i < count; i++) {
        char title[64];
        snprintf(title, sizeof title, "Episode %d of the big show", i);
        gtk_string_list_append(strings, title);
    }
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
    GtkWidget *list = gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(strings))), factory);
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), list);

    GtkWidget *window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(window), "Floor list");
    gtk_window_set_default_size(GTK_WINDOW(window), 960, 680);
    gtk_window_set_child(GTK_WINDOW(window), scrolled);
    g_signal_connect(window, "map", G_CALLBACK(on_map), NULL);
    gtk_window_present(GTK_WINDOW(window));
    while (TRUE)
        g_main_context_iteration(NULL, TRUE);
}
