// The sinks of the running PulseAudio server (or pipewire-pulse), for `audiograph ports`, through
// libpulse.so.0 loaded at run time (dlopen): the package does not depend on libpulse, and without it
// the listing is just left out. Only libpulse's stable ABI is used: the asynchronous API's calls
// and the leading fields of pa_server_info and pa_sink_info, which have not changed since
// libpulse 0.9 (fields are only ever appended). No autospawn; every wait is bounded.
#pragma once
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

// The leading fields of libpulse's structures, as <pulse/introspect.h> declares them.
typedef struct { int format; uint32_t rate; uint8_t channels; } ag_pa_sample_spec;
typedef struct {
    const char *user_name, *host_name, *server_version, *server_name;
    ag_pa_sample_spec sample_spec;
    const char *default_sink_name;
} ag_pa_server_info;
typedef struct {
    const char *name;
    uint32_t index;
    const char *description;
    ag_pa_sample_spec sample_spec;
} ag_pa_sink_info;

/// One sink as `ag_pulse_list_sinks` reports it.
typedef struct {
    const char *name, *description;
    uint32_t rate;
    uint8_t channels;
    int is_default;
} ag_pulse_sink;
typedef void (*ag_pulse_sink_fn)(const ag_pulse_sink *sink, void *context);

#define AG_PULSE_OK 0
#define AG_PULSE_NO_LIBRARY (-1)
#define AG_PULSE_NO_SERVER (-2)
#define AG_PULSE_TIMEOUT (-3)

typedef struct {
    void *(*mainloop_new)(void);
    void *(*mainloop_get_api)(void *);
    int (*mainloop_prepare)(void *, int);
    int (*mainloop_poll)(void *);
    int (*mainloop_dispatch)(void *);
    void (*mainloop_free)(void *);
    void *(*context_new)(void *, const char *);
    int (*context_connect)(void *, const char *, int, const void *);
    int (*context_get_state)(void *);
    void (*context_disconnect)(void *);
    void (*context_unref)(void *);
    void *(*get_server_info)(void *, void (*)(void *, const ag_pa_server_info *, void *), void *);
    void *(*get_sink_info_list)(void *, void (*)(void *, const ag_pa_sink_info *, int, void *), void *);
    int (*operation_get_state)(void *);
    void (*operation_unref)(void *);
} ag_pa_calls;

typedef struct {
    ag_pulse_sink_fn fn;
    void *context;
    char default_sink[256];
    char *server;
    size_t server_size;
} ag_pa_listing;

static void ag_pa_server_info_cb(void *c, const ag_pa_server_info *info, void *userdata) {
    (void)c;
    ag_pa_listing *listing = (ag_pa_listing *)userdata;
    if (!info) return;
    if (info->default_sink_name) {
        strncpy(listing->default_sink, info->default_sink_name, sizeof listing->default_sink - 1);
    }
    if (info->server_name && listing->server_size > 0) {
        const char *version = info->server_version ? info->server_version : "";
        size_t n = strlen(info->server_name), v = strlen(version);
        if (n + 1 + v + 1 <= listing->server_size) {
            memcpy(listing->server, info->server_name, n);
            listing->server[n] = ' ';
            memcpy(listing->server + n + 1, version, v + 1);
        }
    }
}

static void ag_pa_sink_info_cb(void *c, const ag_pa_sink_info *info, int eol, void *userdata) {
    (void)c;
    ag_pa_listing *listing = (ag_pa_listing *)userdata;
    if (eol || !info) return;
    ag_pulse_sink sink = {info->name ? info->name : "", info->description ? info->description : "", info->sample_spec.rate,
                          info->sample_spec.channels, info->name && strcmp(info->name, listing->default_sink) == 0};
    listing->fn(&sink, listing->context);
}

static inline long ag_pa_ms_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/// Runs `loop` until `done(state)` or the deadline; 0 when done.
static inline int ag_pa_run(const ag_pa_calls *pa, void *loop, long deadline, int (*done)(const ag_pa_calls *, void *),
                            void *state) {
    while (!done(pa, state)) {
        if (ag_pa_ms_now() >= deadline) return AG_PULSE_TIMEOUT;
        if (pa->mainloop_prepare(loop, 50 * 1000) < 0 || pa->mainloop_poll(loop) < 0 || pa->mainloop_dispatch(loop) < 0)
            return AG_PULSE_NO_SERVER;
    }
    return AG_PULSE_OK;
}

static int ag_pa_context_settled(const ag_pa_calls *pa, void *context) {
    int state = pa->context_get_state(context);
    return state == 4 /* READY */ || state == 5 /* FAILED */ || state == 6 /* TERMINATED */;
}

static int ag_pa_operation_done(const ag_pa_calls *pa, void *operation) { return pa->operation_get_state(operation) != 0 /* RUNNING */; }

/// Calls `fn` with each sink of the server libpulse would connect to (as `pactl list sinks`
/// would); `server` receives the server's name and version. At most `timeout_ms` in all.
static inline int ag_pulse_list_sinks(int timeout_ms, char *server, size_t server_size, ag_pulse_sink_fn fn, void *fn_context) {
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return AG_PULSE_NO_LIBRARY;
    ag_pa_calls pa;
    void **slots = (void **)&pa;
    static const char *const names[] = {
        "pa_mainloop_new", "pa_mainloop_get_api", "pa_mainloop_prepare", "pa_mainloop_poll", "pa_mainloop_dispatch",
        "pa_mainloop_free", "pa_context_new", "pa_context_connect", "pa_context_get_state", "pa_context_disconnect",
        "pa_context_unref", "pa_context_get_server_info", "pa_context_get_sink_info_list", "pa_operation_get_state",
        "pa_operation_unref"};
    _Static_assert(sizeof(ag_pa_calls) == sizeof names / sizeof names[0] * sizeof(void *), "one pointer per name");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(slots[i] = dlsym(library, names[i]))) return AG_PULSE_NO_LIBRARY;
    }
    long deadline = ag_pa_ms_now() + timeout_ms;
    int result = AG_PULSE_NO_SERVER;
    void *loop = pa.mainloop_new();
    void *context = loop ? pa.context_new(pa.mainloop_get_api(loop), "audiograph ports") : NULL;
    if (context && pa.context_connect(context, NULL, 1 /* PA_CONTEXT_NOAUTOSPAWN */, NULL) >= 0) {
        result = ag_pa_run(&pa, loop, deadline, ag_pa_context_settled, context);
        if (result == AG_PULSE_OK && pa.context_get_state(context) != 4) result = AG_PULSE_NO_SERVER;
        ag_pa_listing listing = {fn, fn_context, {0}, server, server_size};
        if (server_size > 0) server[0] = 0;
        if (result == AG_PULSE_OK) {  // the server's name and its default sink first
            void *operation = pa.get_server_info(context, ag_pa_server_info_cb, &listing);
            result = operation ? ag_pa_run(&pa, loop, deadline, ag_pa_operation_done, operation) : AG_PULSE_NO_SERVER;
            if (operation) pa.operation_unref(operation);
        }
        if (result == AG_PULSE_OK) {
            void *operation = pa.get_sink_info_list(context, ag_pa_sink_info_cb, &listing);
            result = operation ? ag_pa_run(&pa, loop, deadline, ag_pa_operation_done, operation) : AG_PULSE_NO_SERVER;
            if (operation) pa.operation_unref(operation);
        }
        pa.context_disconnect(context);
    }
    if (context) pa.context_unref(context);
    if (loop) pa.mainloop_free(loop);
    return result;  // the library stays loaded: `ports` is a one-shot command
}
