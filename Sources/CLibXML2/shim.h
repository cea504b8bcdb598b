#pragma once
// libxml2's SAX2 push parser, which the feed and OPML readers drive directly.
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
