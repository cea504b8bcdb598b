#include "trackcast-video.h"

#include <epoxy/gl.h>

char *tc_gl_renderer_name(void) {
    GdkDisplay *display = gdk_display_get_default();
    if (display == NULL) return NULL;
    GError *error = NULL;
    GdkGLContext *context = gdk_display_create_gl_context(display, &error);
    if (context == NULL || !gdk_gl_context_realize(context, &error)) {
        g_clear_error(&error);
        g_clear_object(&context);
        return NULL;
    }
    gdk_gl_context_make_current(context);
    const char *name = (const char *)glGetString(GL_RENDERER);
    char *copy = g_strdup(name);
    gdk_gl_context_clear_current();
    g_object_unref(context);
    return copy;
}
