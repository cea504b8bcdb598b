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

gboolean tc_window_lock_aspect(GtkWindow *window, int width, int height) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface) || width <= 0 || height <= 0) return FALSE;
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    Window xid = gdk_x11_surface_get_xid(surface);
    if (xid == None) return FALSE;
    /* GTK writes the minimum size into the same property: keep what it set. */
    XSizeHints *hints = XAllocSizeHints();
    if (hints == NULL) return FALSE;
    long supplied = 0;
    if (!XGetWMNormalHints(display, xid, hints, &supplied)) hints->flags = 0;
    hints->flags |= PAspect;
    hints->min_aspect.x = hints->max_aspect.x = width;
    hints->min_aspect.y = hints->max_aspect.y = height;
    XSetWMNormalHints(display, xid, hints);
    XFree(hints);
    XFlush(display);
    return TRUE;
}

gboolean tc_display_is_x11(void) {
    GdkDisplay *display = gdk_display_get_default();
    return display != NULL && GDK_IS_X11_DISPLAY(display);
}
