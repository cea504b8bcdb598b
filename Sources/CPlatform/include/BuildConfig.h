#pragma once

/* What meson knows at configure time: `meson setup` generates
 * trackcast-config.h in its build directory and meson-helpers/swift-release-build
 * points the Swift build at it (-Xcc -I). A plain `swift build`, as
 * meson-helpers/run and meson-helpers/test do, is an uninstalled development
 * build and gets the values below; its data files are found through the
 * environment (TRACKCAST_LOCALEDIR, GSETTINGS_SCHEMA_DIR) instead. */
#if __has_include("trackcast-config.h")
#include "trackcast-config.h"
#else
#define TRACKCAST_APP_ID "org.trackcast.Trackcast"
#define TRACKCAST_VERSION "0.1.0"
#define TRACKCAST_PROFILE "default"
#define TRACKCAST_GETTEXT_PACKAGE "trackcast"
#define TRACKCAST_LOCALEDIR ""
#define TRACKCAST_PKGDATADIR ""
#endif
