/* The floor for the CLI's start-up: the least a C program linked with the
 * libraries the headless commands use (GLib, libxml2, SQLite) needs to start,
 * print a line and exit. The bench builds it twice: as it is, and with GTK 4,
 * libadwaita and GStreamer linked in too (never called), to tell what loading
 * the GUI's libraries costs a command that does not use them. */
#include <glib.h>
#include <libxml/parser.h>
#include <sqlite3.h>
#include <stdio.h>

int
main(void)
{
    /* One call into each library, so the linker keeps all three. */
    xmlInitParser();
    printf("cli-hello %s %s %d\n", glib_check_version(2, 0, 0) ? "old" : "glib", sqlite3_libversion(), LIBXML_VERSION);
    return 0;
}
