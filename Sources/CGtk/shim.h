#pragma once
#include <gtk/gtk.h>
#include <gdk/x11/gdkx.h>
