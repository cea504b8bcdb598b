#include "trackcast-video.h"

#include <gdk/x11/gdkx.h>
#include <X11/Xlib.h>

/* EWMH: _NET_WM_STATE_ADD */
enum { NET_WM_STATE_ADD = 1 };

gboolean tc_window_request_above_and_sticky(GtkWindow *window) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return FALSE;
    GdkDisplay *gdk_display = gdk_surface_get_display(surface);
    Display *display = gdk_x11_display_get_xdisplay(gdk_display);
    Window xid = gdk_x11_surface_get_xid(surface);
    if (xid == None) return FALSE;

    XEvent event = {0};
    event.xclient.type = ClientMessage;
    event.xclient.window = xid;
    event.xclient.message_type = XInternAtom(display, "_NET_WM_STATE", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = NET_WM_STATE_ADD;
    event.xclient.data.l[1] = (long)XInternAtom(display, "_NET_WM_STATE_ABOVE", False);
    event.xclient.data.l[2] = (long)XInternAtom(display, "_NET_WM_STATE_STICKY", False);
    event.xclient.data.l[3] = 1; /* source: a normal application */
    XSendEvent(display, DefaultRootWindow(display), False, SubstructureRedirectMask | SubstructureNotifyMask,
               &event);
    XFlush(display);
    return TRUE;
}

#include <X11/Xutil.h>

/* Adds the aspect to the hints GTK wrote (its minimum size), unless they have it. */
static void apply_aspect(Display *display, Window xid, int width, int height) {
    XSizeHints *hints = XAllocSizeHints();
    if (hints == NULL) return;
    long supplied = 0;
    if (!XGetWMNormalHints(display, xid, hints, &supplied)) hints->flags = 0;
    gboolean has = (hints->flags & PAspect) && hints->min_aspect.x == width && hints->min_aspect.y == height &&
                   hints->max_aspect.x == width && hints->max_aspect.y == height;
    if (!has) {
        hints->flags |= PAspect;
        hints->min_aspect.x = hints->max_aspect.x = width;
        hints->min_aspect.y = hints->max_aspect.y = height;
        XSetWMNormalHints(display, xid, hints);
        XFlush(display);
    }
    XFree(hints);
}

/* GTK writes WM_NORMAL_HINTS afresh whenever the window's minimum size
 * changes (controls shown, a relayout), dropping the aspect: each time
 * the property changes, the aspect is added back. The write this makes
 * notifies again, and then finds the aspect there. */
static gboolean on_xevent(GdkX11Display *gdk_display, gpointer xevent, gpointer data) {
    XEvent *event = xevent;
    GtkWindow *window = data;
    if (event->type != PropertyNotify || event->xproperty.state != PropertyNewValue) return FALSE;
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return FALSE;
    Display *display = gdk_x11_display_get_xdisplay(GDK_DISPLAY(gdk_display));
    if (event->xproperty.window != gdk_x11_surface_get_xid(surface) ||
        event->xproperty.atom != XInternAtom(display, "WM_NORMAL_HINTS", False))
        return FALSE;
    int width = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(window), "tc-aspect-width"));
    int height = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(window), "tc-aspect-height"));
    if (width > 0 && height > 0) apply_aspect(display, event->xproperty.window, width, height);
    return FALSE;
}

gboolean tc_window_lock_aspect(GtkWindow *window, int width, int height) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface) || width <= 0 || height <= 0) return FALSE;
    GdkDisplay *gdk_display = gdk_surface_get_display(surface);
    Display *display = gdk_x11_display_get_xdisplay(gdk_display);
    Window xid = gdk_x11_surface_get_xid(surface);
    if (xid == None) return FALSE;
    g_object_set_data(G_OBJECT(window), "tc-aspect-width", GINT_TO_POINTER(width));
    g_object_set_data(G_OBJECT(window), "tc-aspect-height", GINT_TO_POINTER(height));
    if (g_object_get_data(G_OBJECT(window), "tc-aspect-watched") == NULL) {
        /* Disconnected when the window goes. */
        g_signal_connect_object(gdk_display, "xevent", G_CALLBACK(on_xevent), window, 0);
        g_object_set_data(G_OBJECT(window), "tc-aspect-watched", GINT_TO_POINTER(1));
    }
    apply_aspect(display, xid, width, height);
    return TRUE;
}

gboolean tc_display_is_x11(void) {
    GdkDisplay *display = gdk_display_get_default();
    return display != NULL && GDK_IS_X11_DISPLAY(display);
}
