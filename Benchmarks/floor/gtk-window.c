/* The floor for "start to first window frame": the least a C program needs to
 * put a GTK 4 window with a label on screen. Prints "first-frame" after the
 * first frame is painted and exits, as `TRACKCAST_QUIT_AFTER_FIRST_FRAME=1`
 * makes Trackcast do. */
#include <gtk/gtk.h>
#include <stdio.h>

static gboolean done;

static void
after_paint(GdkFrameClock *clock, gpointer user_data)
{
    (void) clock;
    (void) user_data;
    if (done)
        return;
    done = TRUE;
    puts("first-frame");
    fflush(stdout);
    exit(0);
}

static void
on_map(GtkWidget *window, gpointer user_data)
{
    (void) user_data;
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(after_paint), NULL);
}

int
main(void)
{
    gtk_init();
    GtkWidget *window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(window), "Floor");
    gtk_window_set_default_size(GTK_WINDOW(window), 960, 680);
    gtk_window_set_child(GTK_WINDOW(window), gtk_label_new("No podcasts yet"));
    g_signal_connect(window, "map", G_CALLBACK(on_map), NULL);
    gtk_window_present(GTK_WINDOW(window));
    while (TRUE)
        g_main_context_iteration(NULL, TRUE);
}
