#!/bin/bash
# By hand (not a scripts/test step; about 2 min): note-to-sound latency and xruns of `play` on every
# sound-server path at a 256-frame period (PERIOD=N), NOTES notes each (default 20), through the
# control socket (`note 1 69 100`, stamped on CLOCK_MONOTONIC just before it is sent) to the onset
# at the server's sink (pipewire/pulse plugins: libpulse's recorder on testsink's monitor) or in
# the JACK graph (a JACK client reading AudioGraph:out_L, JACK's frame times, its clock offset taken out);
# see timing.py. Prints one summary line per path; docs/AUDIO-SERVERS.md
# holds the figures. SKIP_BUILD=1 uses the built binary; KEEP=1 keeps the recordings.
source "$(dirname "$0")/lib.sh"
need_packages pulseaudio jackd2 "${PIPEWIRE_PACKAGES[@]}"
pipewire_alsa_plugin
pipewire_config
sine_instrument
start_dbus
PERIOD=${PERIOD:-256}
NOTES=${NOTES:-20}
SUMMARY=()

# measure LABEL TIMING-COMMAND AUDIOGRAPH-ARGS...: audiograph plays (no song) while timing.py times the notes.
measure() {
    local label=$1 timer=$2 log=$T/ag-$1.log; shift 2
    "$@" --instrument "$T/test.json" --rt-priority 70 > "$log" 2>&1 &
    local ag=$!
    until_true 150 has "$log" "ready in" || { echo "$label: audiograph did not start"; cat "$log"; kill $ag; return; }
    sleep 1
    $timer "$T/lat-$label.wav" --notes "$NOTES" | tee "$T/lat-$label.txt"
    kill -INT $ag
    wait $ag
    local xruns; xruns=$(grep "stopped:" "$log" | sed -E 's/.*xruns ([0-9]+).*/\1/')
    local seconds; seconds=$(echo "$NOTES * 0.5 + 2" | bc)
    SUMMARY+=("$(printf "%-30s %s; xruns %s in ~%s s" "$label" "$(grep -m1 LATENCY "$T/lat-$label.txt")" "$xruns" "$seconds")")
}
latency() { python3 "$SERVERS/timing.py" latency "$@"; }
jack_latency() { python3 "$SERVERS/timing.py" jack-latency "$@"; }
pw_jack_latency() { pw-jack python3 "$SERVERS/timing.py" jack-latency "$@"; }

echo "== PipeWire $(pipewire --version | sed -n 's/.*libpipewire \([0-9.]*\).*/\1/p')"
start_pipewire
pw-metadata -n settings 0 clock.force-quantum "$PERIOD" > /dev/null
measure pipewire-plugin latency "$AG" play --device pipewire --period "$PERIOD" --periods 3
measure pulse-plugin-pipewire-pulse latency "$AG" play --device pulse --period "$PERIOD" --periods 3
measure pw-jack pw_jack_latency pw-jack "$AG" play --driver jack
pw-metadata -n settings 0 clock.force-quantum 0 > /dev/null
stop_pipewire

echo "== PulseAudio $(pulseaudio --version | cut -d' ' -f2)"
start_pulseaudio
measure pulse-plugin-pulseaudio latency "$AG" play --device pulse --period "$PERIOD" --periods 3
kill_daemon pulseaudio

echo "== jackd2 dummy, buffer $PERIOD"
start_jackd "$PERIOD"
measure jackd jack_latency "$AG" play --driver jack --jack-connect
kill_daemon jackd TERM

echo
echo "== summary (period $PERIOD, 48 kHz, load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%s\n' "${SUMMARY[@]}"
