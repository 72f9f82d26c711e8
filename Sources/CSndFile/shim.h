// libsndfile for Swift: SF_INSTRUMENT.loops is an array of an anonymous struct, which the
// Swift importer silently drops; these accessors reach it.
#pragma once
#include <sndfile.h>

typedef struct { int mode; unsigned int start; unsigned int end; unsigned int count; } csf_loop;
static inline int csf_instrument_loop_count(const SF_INSTRUMENT *inst) { return inst->loop_count; }
static inline csf_loop csf_instrument_get_loop(const SF_INSTRUMENT *inst, int i) {
    csf_loop l = { inst->loops[i].mode, inst->loops[i].start, inst->loops[i].end, inst->loops[i].count };
    return l;
}
