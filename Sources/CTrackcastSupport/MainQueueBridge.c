#include "CTrackcastSupport.h"

#include <glib-unix.h>
#include <sys/eventfd.h>

/* libdispatch's private hooks for run loops that drive the main queue, the
 * same ones CoreFoundation uses on Apple platforms. On Linux the handle is an
 * eventfd that libdispatch writes whenever work is enqueued on the main queue. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static guint64 wakeups;

static gboolean
drain_main_queue(gint fd, GIOCondition condition, gpointer user_data)
{
    (void) condition;
    (void) user_data;
    /* Reading resets the eventfd counter; without it the fd stays readable
     * and the watch fires in a busy loop. */
    eventfd_t ignored;
    eventfd_read(fd, &ignored);
    wakeups++;
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

guint
tc_main_queue_bridge_install(void)
{
    int fd = _dispatch_get_main_queue_handle_4CF();
    return g_unix_fd_add(fd, G_IO_IN, drain_main_queue, NULL);
}

guint64
tc_main_queue_bridge_wakeups(void)
{
    return wakeups;
}
