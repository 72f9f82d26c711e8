// libxml2 for Swift: xmlFree is a mutable global (rejected by Swift 6 strict concurrency) and
// the generic error callback is variadic; both are wrapped here.
#pragma once
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

static inline void cxml_free(void *p) { xmlFree(p); }
static void cxml_quiet_structured(void *ctx, xmlErrorPtr err) { (void)ctx; (void)err; }
static inline void cxml_silence_errors(void) { xmlSetStructuredErrorFunc(NULL, cxml_quiet_structured); }
