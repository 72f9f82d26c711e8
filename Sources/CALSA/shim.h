// ALSA for Swift: the snd_seq_ev_set_* helpers are macros and do not import, so they are
// re-exported here as static inline functions. alsa-lib's default error handler prints
// "ALSA lib ..." to stderr; calsa_silence_errors() installs a quiet one (variadic, so C only).
#pragma once
#include <alsa/asoundlib.h>

static void calsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void calsa_silence_errors(void) { snd_lib_error_set_handler(calsa_quiet_handler); }

static inline void calsa_seq_ev_clear(snd_seq_event_t *ev) { snd_seq_ev_clear(ev); }
static inline void calsa_seq_ev_set_direct(snd_seq_event_t *ev) { snd_seq_ev_set_direct(ev); }
static inline void calsa_seq_ev_set_subs(snd_seq_event_t *ev) { snd_seq_ev_set_subs(ev); }
static inline void calsa_seq_ev_set_source(snd_seq_event_t *ev, unsigned char port) { snd_seq_ev_set_source(ev, port); }
static inline void calsa_seq_ev_set_dest(snd_seq_event_t *ev, int client, int port) { snd_seq_ev_set_dest(ev, client, port); }
static inline void calsa_seq_ev_set_noteon(snd_seq_event_t *ev, int ch, int key, int vel) { snd_seq_ev_set_noteon(ev, ch, key, vel); }
static inline void calsa_seq_ev_set_noteoff(snd_seq_event_t *ev, int ch, int key, int vel) { snd_seq_ev_set_noteoff(ev, ch, key, vel); }
static inline void calsa_seq_ev_set_controller(snd_seq_event_t *ev, int ch, int cc, int val) { snd_seq_ev_set_controller(ev, ch, cc, val); }
static inline void calsa_seq_ev_set_pitchbend(snd_seq_event_t *ev, int ch, int val) { snd_seq_ev_set_pitchbend(ev, ch, val); }
static inline void calsa_seq_ev_set_pgmchange(snd_seq_event_t *ev, int ch, int val) { snd_seq_ev_set_pgmchange(ev, ch, val); }

// Macros built from other macros (OR expressions) are not imported by Swift; re-export them.
static const int calsa_seq_open_duplex = SND_SEQ_OPEN_DUPLEX;
static const int calsa_seq_open_output = SND_SEQ_OPEN_OUTPUT;
static const int calsa_seq_nonblock = SND_SEQ_NONBLOCK;
static inline void calsa_seq_ev_set_keypress(snd_seq_event_t *ev, int ch, int key, int vel) { snd_seq_ev_set_keypress(ev, ch, key, vel); }
static inline void calsa_seq_ev_set_chanpress(snd_seq_event_t *ev, int ch, int val) { snd_seq_ev_set_chanpress(ev, ch, val); }
static inline void calsa_seq_ev_set_sysex(snd_seq_event_t *ev, unsigned int len, void *ptr) { snd_seq_ev_set_sysex(ev, len, ptr); }

// For ALSAIO's real-time thread (ALSAIO's only C module, hence here): pthread_setname_np
// needs _GNU_SOURCE and prctl is variadic, and glibc spells RLIMIT_MEMLOCK as an enum macro.
#include <sys/prctl.h>
#include <sys/resource.h>
static inline void calsa_set_current_thread_name(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }
static const int calsa_rlimit_memlock = RLIMIT_MEMLOCK;
