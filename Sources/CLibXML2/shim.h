// libxml2 for Swift: xmlFree is a mutable global (rejected by Swift 6 strict concurrency) and
// the generic error callback is variadic; both are wrapped here.
#pragma once
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so <libxml/encoding.h> would include the system's
// <unicode/ucnv.h>. A module that sees both this and Foundation's bundled ICU (_FoundationICU)
// then fails with "'UErrorCode' has different definitions in different modules". We never use
// libxml2's ICU converters (only pointers to the encoding handler), so keep ICU out of this module.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

static inline void cxml_free(void *p) { xmlFree(p); }
static void cxml_quiet_structured(void *ctx, xmlErrorPtr err) { (void)ctx; (void)err; }
static inline void cxml_silence_errors(void) { xmlSetStructuredErrorFunc(NULL, cxml_quiet_structured); }
