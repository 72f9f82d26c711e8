#!/bin/bash
# The page's test keyboard on the audio: `play --device pipewire --panel PORT` (the Sine preset, dry)
# through ALSA's pipewire plugin into a real PipeWire daemon's null sink, recorded from its monitor
# with pw-record; headless Chromium holds A4 on the page for 1.5 s. Checks: the page's health names
# PipeWire as the audio server, the recording holds one note, 440 Hz within 2 cents (FFT peak,
# Tests/servers/analyse.py; the note's span is printed). The daemons run under a private
# XDG_RUNTIME_DIR (Tests/servers/lib.sh) and are stopped by PID. SKIP_BUILD=1 uses the built binary.
source "$(dirname "$0")/../servers/lib.sh"
prepare_pipewire_alsa
venv=$REPO/.build/panel-venv
[[ -x $venv/bin/python ]] || { echo "run-keyboard-audio: no $venv (scripts/test-panel makes it)"; exit 2; }

start_pipewire
port=$((20000 + RANDOM % 20000))
start_recorder rec_keys "$T/keys.wav"
start_daemon play "$AG" play --device pipewire --period 256 --instrument "$T/test.json" --panel "$port" --duration 60
until_true 100 has "$T/play.log" "panel: http" || { fail "play did not start"; cat "$T/play.log"; exit 1; }
(cd "$REPO/Tests/panel" && timeout 60 "$venv/bin/python" keyboard_audio_test.py "$port" "PipeWire (ALSA pipewire plugin)" 1.5) \
    || fail "the page (above)"
sleep 0.5
kill_daemon play TERM
stop_recorder rec_keys
grep -m1 "playback:" "$T/play.log"
python3 "$SERVERS/analyse.py" segments "$T/keys.wav" --expect 440 && pass "one note heard, A4" || fail "notes (above)"
python3 "$SERVERS/analyse.py" pitch "$T/keys.wav" --expect-hz 440 --tol-cents 2 && pass "the key's note at 440 Hz" || fail "pitch (above)"
echo "keyboard audio test: $fails failed"
[[ $fails == 0 ]]
