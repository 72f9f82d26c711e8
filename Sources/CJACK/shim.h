// JACK for Swift: jack_client_open is variadic (it takes the server name that way) and does not
// import; the port type names are string macros; libjack prints its errors to stderr, which we
// report as typed errors instead.
#pragma once
#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/thread.h>

static inline jack_client_t *cjack_client_open(const char *name, jack_options_t options, jack_status_t *status,
                                               const char *server_name) {
    if (server_name)
        return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server_name);
    return jack_client_open(name, options, status);
}

static const char *const cjack_audio_type = JACK_DEFAULT_AUDIO_TYPE;
static const char *const cjack_midi_type = JACK_DEFAULT_MIDI_TYPE;

static void cjack_quiet(const char *message) { (void)message; }
static inline void cjack_silence_messages(void) {
    jack_set_error_function(cjack_quiet);
    jack_set_info_function(cjack_quiet);
}
