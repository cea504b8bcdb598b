/* A stand-in for NetworkManager, for the tests only: GIO's network monitor
 * (GIO_USE_NETWORK_MONITOR=networkmanager) reads whether the network is
 * metered from NetworkManager on the system bus, and no test machine runs
 * one. Run it on a bus of the test's own (the app's DBUS_SYSTEM_BUS_ADDRESS;
 * it connects through DBUS_SESSION_BUS_ADDRESS). It owns
 * org.freedesktop.NetworkManager and serves the properties GIO reads: State
 * (70, connected globally: GIO reads Metered only then), Connectivity (4,
 * full) and Metered (1 yes, 4 guess no), starting as
 * argv[1] says ("metered" or "unmetered"). SIGUSR1 flips Metered and emits
 * PropertiesChanged, as NetworkManager does when the connection changes;
 * each state is printed on stdout ("metered" / "unmetered"). */
#include <gio/gio.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>

static const char *introspection =
    "<node><interface name='org.freedesktop.NetworkManager'>"
    "  <property type='u' name='State' access='read'/>"
    "  <property type='u' name='Connectivity' access='read'/>"
    "  <property type='u' name='Metered' access='read'/>"
    "  <property type='b' name='NetworkingEnabled' access='read'/>"
    "</interface></node>";

enum { METERED_YES = 1, METERED_GUESS_NO = 4, CONNECTIVITY_FULL = 4, STATE_CONNECTED_GLOBAL = 70 };

static guint32 metered;
static GDBusConnection *bus;

static GVariant *get_property(GDBusConnection *connection, const char *sender, const char *path,
                              const char *interface, const char *name, GError **error, gpointer data) {
    if (strcmp(name, "State") == 0) return g_variant_new_uint32(STATE_CONNECTED_GLOBAL);
    if (strcmp(name, "Connectivity") == 0) return g_variant_new_uint32(CONNECTIVITY_FULL);
    if (strcmp(name, "Metered") == 0) return g_variant_new_uint32(metered);
    if (strcmp(name, "NetworkingEnabled") == 0) return g_variant_new_boolean(TRUE);
    g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY, "no property %s", name);
    return NULL;
}

static const GDBusInterfaceVTable vtable = { NULL, get_property, NULL, { 0 } };

static void say_state(void) {
    printf("%s\n", metered == METERED_YES ? "metered" : "unmetered");
    fflush(stdout);
}

static gboolean flip(gpointer data) {
    metered = metered == METERED_YES ? METERED_GUESS_NO : METERED_YES;
    GVariantBuilder changed;
    g_variant_builder_init(&changed, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&changed, "{sv}", "Metered", g_variant_new_uint32(metered));
    g_dbus_connection_emit_signal(bus, NULL, "/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Properties",
                                  "PropertiesChanged",
                                  g_variant_new("(sa{sv}as)", "org.freedesktop.NetworkManager", &changed, NULL), NULL);
    g_dbus_connection_flush_sync(bus, NULL, NULL);
    say_state();
    return G_SOURCE_CONTINUE;
}

static void bus_acquired(GDBusConnection *connection, const char *name, gpointer data) {
    bus = connection;
    GDBusNodeInfo *info = g_dbus_node_info_new_for_xml(introspection, NULL);
    g_dbus_connection_register_object(connection, "/org/freedesktop/NetworkManager", info->interfaces[0], &vtable,
                                      NULL, NULL, NULL);
    g_dbus_node_info_unref(info);
}

static void name_acquired(GDBusConnection *connection, const char *name, gpointer data) {
    say_state();
}

static void name_lost(GDBusConnection *connection, const char *name, gpointer data) {
    fprintf(stderr, "fake-network-manager: could not own %s\n", name);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "metered") != 0 && strcmp(argv[1], "unmetered") != 0)) {
        fprintf(stderr, "usage: fake-network-manager metered|unmetered\n");
        return 2;
    }
    metered = strcmp(argv[1], "metered") == 0 ? METERED_YES : METERED_GUESS_NO;
    g_unix_signal_add(SIGUSR1, flip, NULL);
    g_bus_own_name(G_BUS_TYPE_SESSION, "org.freedesktop.NetworkManager", G_BUS_NAME_OWNER_FLAGS_NONE, bus_acquired,
                   name_acquired, name_lost, NULL, NULL);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
