#pragma once
/* The settings backends (memory, keyfile) are behind this opt-in. */
#define G_SETTINGS_ENABLE_BACKEND
#include <glib.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <gio/gsettingsbackend.h>
#include <glib-unix.h>

/* G_TYPE_* are macros over G_TYPE_MAKE_FUNDAMENTAL, which Swift cannot import. */
static inline GType tc_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType tc_type_int(void) { return G_TYPE_INT; }
static inline GType tc_type_uint(void) { return G_TYPE_UINT; }
static inline GType tc_type_int64(void) { return G_TYPE_INT64; }
static inline GType tc_type_uint64(void) { return G_TYPE_UINT64; }
static inline GType tc_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType tc_type_string(void) { return G_TYPE_STRING; }
static inline GType tc_type_object(void) { return G_TYPE_OBJECT; }
static inline GType tc_type_variant(void) { return G_TYPE_VARIANT; }

static inline GType tc_type_from_instance(gpointer instance) { return G_TYPE_FROM_INSTANCE(instance); }
static inline GObjectClass *tc_object_get_class(gpointer object) { return G_OBJECT_GET_CLASS(object); }
