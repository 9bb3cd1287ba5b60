// libxml2's pull parser (xmlTextReader), for reading XMP packets as XML.
#ifndef JOURNALMEDIA_CLIBXML2_SHIM_H
#define JOURNALMEDIA_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with the ICU copy inside Swift's
// Foundation. Nothing here uses libxml2's ICU converters (they only change the layout of
// xmlCharEncodingHandler, which Swift never touches), so their header is left out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#endif
