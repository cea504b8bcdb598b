#pragma once

/* gettext lives in glibc, but Swift's Glibc module does not export libintl.h. */
#include <libintl.h>
#include <locale.h>
