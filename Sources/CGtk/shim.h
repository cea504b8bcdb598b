#pragma once
#include <gtk/gtk.h>
#include <adwaita.h>
#include <gdk/x11/gdkx.h>
