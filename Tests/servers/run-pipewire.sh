#!/bin/bash
# `play` through ALSA's `pipewire` plugin against real PipeWire 0.3 + WirePlumber + pipewire-pulse
# daemons with a null sink, recorded from the sink's monitor (pw-record). No sound card needed.
#   1. `default` goes to PipeWire, which is not running: `play` says so, waits, and plays once it starts
#   2. 60 s of a held A4 at a 256-frame period: the grant printed, 440 Hz, 0 xruns, no discontinuity
#   3. the daemons killed mid-play and restarted: no busy loop while they are away (CPU from /proc),
#      playback back within 2 s of their return, the note released during the outage stays
#      released, the note held across it is released on time, a later note plays
# SKIP_BUILD=1 uses the built binary; KEEP=1 keeps the temporary directory; SECONDS60=N shortens part 2.
source "$(dirname "$0")/lib.sh"
prepare_pipewire_alsa

echo "== 1. default goes to PipeWire, which is not running"
python3 "$SERVERS/song.py" "$T/short.mid" 300:1500:69
"$AG" play --device default --period 256 --instrument "$T/test.json" --midi "$T/short.mid" --rt-priority 0 \
    > "$T/ag-absent.log" 2>&1 &
ag=$!
until_true 100 has "$T/ag-absent.log" "waiting for playback device" || fail "no waiting line"
line=$(grep -m1 "waiting for playback device" "$T/ag-absent.log")
echo "  $line"
[[ $line == *"ALSA default goes to PipeWire, which is not running (Host is down)"* ]] \
    && pass "says default goes to PipeWire, which is not running" || fail "unclear message: $line"
start_pipewire
until_true 50 has "$T/ag-absent.log" "is here" && pass "plays once PipeWire is up" || fail "did not open after PipeWire started"
timeout 20 tail --pid=$ag -f /dev/null; wait $ag && pass "song played, exit 0" || fail "exit status $?"

echo "== 2. 60 s at a 256-frame period"
held_tone_check pipewire "${SECONDS60:-60}"

ports_check PipeWire

echo "== 3. PipeWire killed and restarted mid-play"
restart_check pipewire stop_pipewire start_pipewire "$XDG_RUNTIME_DIR/pipewire-0"

echo "pipewire server test: $fails failed"
[[ $fails == 0 ]]
