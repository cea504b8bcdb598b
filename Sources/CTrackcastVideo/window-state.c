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
