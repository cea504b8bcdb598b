/* A stand-in for xdg-desktop-portal's Background portal, for the tests only:
 * no real portal runs outside a Flatpak sandbox, so the tests run this on
 * their own session bus under a name of their choosing. It owns argv[1],
 * serves org.freedesktop.portal.Background.RequestBackground at
 * /org/freedesktop/portal/desktop, prints each request's arguments on stdout
 * (one line: "request parent=… reason=… autostart=… handle_token=…"), and
 * answers through the Request object's Response signal as the real portal
 * does: argv[2] "allow" grants background running, "deny" refuses it. */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

static const char *introspection =
    "<node><interface name='org.freedesktop.portal.Background'>"
    "  <method name='RequestBackground'>"
    "    <arg type='s' name='parent_window' direction='in'/>"
    "    <arg type='a{sv}' name='options' direction='in'/>"
    "    <arg type='o' name='handle' direction='out'/>"
    "  </method>"
    "</interface></node>";

static gboolean allows;

static void handle_call(GDBusConnection *connection, const char *sender, const char *path, const char *interface,
                        const char *method, GVariant *parameters, GDBusMethodInvocation *invocation, gpointer data) {
    const char *parent = NULL;
    GVariant *options = NULL;
    g_variant_get(parameters, "(&s@a{sv})", &parent, &options);
    const char *reason = "", *token = "";
    gboolean autostart = TRUE;
    g_variant_lookup(options, "reason", "&s", &reason);
    g_variant_lookup(options, "handle_token", "&s", &token);
    if (!g_variant_lookup(options, "autostart", "b", &autostart)) autostart = TRUE;
    printf("request parent=%s reason=%s autostart=%s handle_token=%s\n", parent, reason,
           autostart ? "true" : "false", token);
    fflush(stdout);

    /* The handle: /org/freedesktop/portal/desktop/request/SENDER/TOKEN, the
     * sender's unique name without its colon and with dots as underscores. */
    char *sender_part = g_strdup(sender + 1);
    for (char *c = sender_part; *c; c++) if (*c == '.') *c = '_';
    char *handle = g_strdup_printf("/org/freedesktop/portal/desktop/request/%s/%s", sender_part, token);
    g_dbus_method_invocation_return_value(invocation, g_variant_new("(o)", handle));

    GVariantBuilder results;
    g_variant_builder_init(&results, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&results, "{sv}", "background", g_variant_new_boolean(allows));
    g_variant_builder_add(&results, "{sv}", "autostart", g_variant_new_boolean(FALSE));
    g_dbus_connection_emit_signal(connection, sender, handle, "org.freedesktop.portal.Request", "Response",
                                  g_variant_new("(u@a{sv})", 0, g_variant_builder_end(&results)), NULL);
    g_free(handle);
    g_free(sender_part);
    g_variant_unref(options);
}

static const GDBusInterfaceVTable vtable = { handle_call, NULL, NULL, { 0 } };

static void bus_acquired(GDBusConnection *connection, const char *name, gpointer data) {
    GDBusNodeInfo *info = g_dbus_node_info_new_for_xml(introspection, NULL);
    g_dbus_connection_register_object(connection, "/org/freedesktop/portal/desktop", info->interfaces[0], &vtable,
                                      NULL, NULL, NULL);
    g_dbus_node_info_unref(info);
}

static void name_acquired(GDBusConnection *connection, const char *name, gpointer data) {
    printf("ready\n");
    fflush(stdout);
}

static void name_lost(GDBusConnection *connection, const char *name, gpointer data) {
    fprintf(stderr, "fake-background-portal: could not own %s\n", name);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[2], "allow") != 0 && strcmp(argv[2], "deny") != 0)) {
        fprintf(stderr, "usage: fake-background-portal BUS-NAME allow|deny\n");
        return 2;
    }
    allows = strcmp(argv[2], "allow") == 0;
    g_bus_own_name(G_BUS_TYPE_SESSION, argv[1], G_BUS_NAME_OWNER_FLAGS_NONE, bus_acquired, name_acquired, name_lost,
                   NULL, NULL);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
