#!/bin/bash
# `play` through ALSA's `pulse` plugin: against a real PulseAudio daemon, then against PipeWire's
# pipewire-pulse, each with a null sink recorded from its monitor (parec). No sound card needed.
#   1. PulseAudio: 60 s of a held A4 at a 256-frame period (grant printed, 440 Hz, 0 xruns, no
#      discontinuity), then the daemon killed mid-play and restarted (see run-pipewire.sh)
#   2. pipewire-pulse: 20 s of the same, then PipeWire killed and restarted under it
# SKIP_BUILD=1 uses the built binary; KEEP=1 keeps the temporary directory; SECONDS60=N shortens 1.
source "$(dirname "$0")/lib.sh"
need_packages pulseaudio "${PIPEWIRE_PACKAGES[@]}"
RECORDER=parec
source "$SERVERS/alsa-server-checks.sh"
sine_instrument
start_dbus

echo "== 1. PulseAudio $(pulseaudio --version | cut -d' ' -f2)"
start_pulseaudio
held_tone_check pulse "${SECONDS60:-60}"
stop_pulseaudio() { kill_daemon pulseaudio; }
restart_check pulse stop_pulseaudio start_pulseaudio
stop_pulseaudio

echo "== 2. pipewire-pulse"
pipewire_config
start_pipewire
held_tone_check pulse 20
restart_check pulse stop_pipewire start_pipewire

echo "pulse server test: $fails failed"
[[ $fails == 0 ]]
