#pragma once
// libxml2's SAX2 push parser, which the feed and OPML readers drive directly.
//
// Debian builds libxml2 with ICU, so encoding.h would include ICU's headers,
// whose UErrorCode clashes with the copy inside Foundation (_FoundationICU) in
// the same Swift module. ICU only adds two trailing pointers to
// xmlCharEncodingHandler, a struct Trackcast never touches (the parser
// context holds it by pointer), so the ICU parts are left out here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
