#!/bin/bash
# Live-instrument checks. Runs INSIDE the alsa-vm guest (see run-instrument-live.sh, which boots
# the VM once, provides test.json and song.mid in the working directory, and analyses the
# capture on the host afterwards).
#   usage: instrument-live.sh /path/to/audiograph /path/to/instrument-midi.py
# One `audiograph play` on hw:Loopback,0,0 (period 1024 x 3) runs through every section while
# arecord captures hw:Loopback,1,0 and instrument-midi.py samples the capture's hw_ptr against
# CLOCK_MONOTONIC (clock.txt), so the host can place every MIDI send and every section marker
# (timeline.txt) on the capture's frames. The guest checks what it can see (logs, aconnect,
# status); the host checks the sound. Every wait polls an observable state: under the rig's
# software CPU a process start costs 0.05-0.5 s.
set -u
AG=${1:?usage: instrument-live.sh /path/to/audiograph /path/to/instrument-midi.py}
HELPER=${2:?usage: instrument-live.sh /path/to/audiograph /path/to/instrument-midi.py}
source "$(dirname "$0")/guest-lib.sh"
section() { echo; echo "=== $*"; }
now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }       # CLOCK_REALTIME, no process start
mark() { echo "$1 real=$(now_ns)" >> timeline.txt; }            # the host maps it to capture frames
field() { sed -n "s/.*$2=\([0-9:]*\).*/\1/p" "$1" | head -1; }   # value of KEY=... in a log line
rm -f -- *.txt capture.wav stop-clock
CAP=/dev/shm/capture.wav
PLAY_STATUS=card0/pcm0p/sub0 CAP_STATUS=card0/pcm1c/sub0

section "start: audiograph play on hw:Loopback,0,0, capture on hw:Loopback,1,0"
t_start=$(now_ns)
"$AG" play --device hw:Loopback,0,0 --period 1024 --periods 3 --instrument test.json \
    --set synth.sustain=1 --set synth.release=0.05 --set bus.sampler.mute=on \
    --connect 'Virtual Raw MIDI 2-0' --autoconnect --autoconnect-exclude 'Virtual Raw MIDI 2-1' > ag.txt 2>&1 &
ag=$!
until_true 1200 has ag.txt "audio thread:" || { failc "audiograph did not start"; cat ag.txt; kill $ag; exit 1; }
until_true 200 pcm_running $PLAY_STATUS || failc "playback substream not running"
echo "audiograph up after $(( ($(now_ns) - t_start) / 1000000 )) ms"
cat ag.txt
grep -q "period 1024 frames" ag.txt && pass "playback opened with period 1024 x 3" || failc "unexpected playback setup"
# The side that opens first fixes the loopback's format: arecord takes exactly what we negotiated.
format=$(sed -n 's/^format: //p' /proc/asound/$PLAY_STATUS/hw_params)
arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 --buffer-size=9600 "$CAP" 2> arecord.txt &
rec=$!
until_true 200 pcm_running $CAP_STATUS || failc "arecord did not start"
python3 "$HELPER" clock /proc/asound/$CAP_STATUS/status stop-clock > clock.txt 2> clock-err.txt &
clock=$!
until_true 400 test -s clock.txt || failc "clock sampler did not start"
mark capture-ready

section "1. aconnect -l lists AudioGraph:MIDI In, connected from VirMIDI 2-0 (--connect)"
aconnect -l > aconnect.txt
AGC=$(awk -F'[ :]' "/'AudioGraph'/{print \$2; exit}" aconnect.txt)
grep -A3 "'AudioGraph'" aconnect.txt
grep -A1 "'AudioGraph'" aconnect.txt | grep -q "0 'MIDI In *'" && pass "aconnect -l lists AudioGraph ($AGC):0 'MIDI In'" || failc "AudioGraph:MIDI In not listed"
grep -A3 "'AudioGraph'" aconnect.txt | grep -q "Connected From: 24:0" && pass "--connect subscribed VirMIDI 24:0" || failc "VirMIDI 24:0 not connected"
grep -A3 "'Virtual Raw MIDI 2-1'" aconnect.txt | grep -q "Connecting To" && failc "autoconnect exclude ignored (2-1 connected)" || pass "autoconnect exclude: VirMIDI 2-1 left alone"

section "2. raw MIDI into VirMIDI 2-0: A4 then E5 on channel 2"
mark vir-start
amidi -p hw:VirMIDI,0 -S '91 45 64'; nap 0.4
amidi -p hw:VirMIDI,0 -S '81 45 00'; nap 0.15
amidi -p hw:VirMIDI,0 -S '91 4C 64'; nap 0.4
amidi -p hw:VirMIDI,0 -S '81 4C 00'; nap 0.3
mark vir-end

section "3. aplaymidi -p AudioGraph:0 song.mid (six notes, channel 2)"
mark song-start
aplaymidi -p AudioGraph:0 song.mid && pass "aplaymidi played song.mid" || failc "aplaymidi rc $?"
mark song-end
voices_zero() { "$AG" status --json > status.json 2>/dev/null && [[ $(json_int status.json voices) == 0 ]]; }
until_true 40 voices_zero && pass "status --json: voices back to 0 after the song" || failc "voices still $(json_int status.json voices) after the song"
nap 0.4
mark song-quiet-end

section "4. audiograph note C4 --duration 0.3 --channel 2"
mark note-start
"$AG" note C4 --duration 0.3 --channel 2 && pass "audiograph note returned 0" || failc "audiograph note rc $?"
nap 0.3
mark note-end

section "5. hot-plug: a source created after start is autoconnected; killed mid-chord"
python3 "$HELPER" source rig-hotplug 2 69 73 76 > source.txt 2>&1 &
source=$!
until_true 400 has source.txt "chord sent" || failc "hot-plugged source never subscribed"
cat source.txt
SRC=$(awk '/^ready/{print $2; exit}' source.txt)
t_ready=$(field source.txt mono); t_sub=$(awk '/^subscribed/{sub("mono=","",$2); print $2}' source.txt)
if [[ -n $t_ready && -n $t_sub ]]; then
    ms=$(( (t_sub - t_ready) / 1000000 ))
    echo "autoconnect-delay-ms $ms" >> figures.txt
    (( ms < 1000 )) && pass "new port $SRC autoconnected $ms ms after it appeared" || failc "autoconnect took $ms ms"
fi
until_true 40 has ag.txt "MIDI source $SRC connected" && pass "log: MIDI source $SRC connected" || failc "no 'connected' log line for $SRC"
until_true 20 "$AG" status --json > status.json 2>/dev/null
cat status.json
[[ $(json_int status.json voices) -ge 3 ]] && pass "status --json while playing: $(json_int status.json voices) voices" || failc "status --json voices: '$(json_int status.json voices)'"
nap 0.3
mark source-kill
kill -9 $source; wait $source 2>/dev/null
until_true 40 has ag.txt "MIDI source $SRC gone" || true
grep "MIDI source $SRC gone" ag.txt | grep -q "released 3 held notes" && pass "log: $SRC gone, released 3 held notes" || failc "no release for $SRC"
nap 0.4
mark source-quiet-end

section "6. latency and jitter: 30 notes ~150 ms apart (seeded +-25 ms), from a sequencer client"
"$AG" status --json > status.json 2>/dev/null; echo "xruns-before-stream $(json_int status.json xruns)" >> figures.txt
mark stream-start
python3 "$HELPER" stream "$AGC:0" 2 81 30 0.15 0.06 > stream.txt 2>&1 || failc "stream sender rc $?"
grep -c "^note " stream.txt | grep -qx 30 && pass "stream sent 30 notes" || failc "stream sent $(grep -c '^note ' stream.txt) notes"
nap 0.3
mark stream-end
"$AG" status --json > status.json 2>/dev/null; echo "xruns-after-stream $(json_int status.json xruns)" >> figures.txt

section "7. SIGSTOP 200 ms -> underrun recovered and counted, sound continues"
# Under a loaded host the software CPU can cause an xrun by itself: count the ones before the stop.
"$AG" status --json > status.json 2>/dev/null
xruns_before=$(json_int status.json xruns)
echo "xruns-before-stop ${xruns_before:-?}" >> figures.txt
kill -STOP $ag; mark stop; nap 0.2; kill -CONT $ag; mark cont
xruns_seen() { "$AG" status --json > status.json 2>/dev/null && (( $(json_int status.json xruns) > ${xruns_before:-0} )); }
until_true 40 xruns_seen && pass "status --json: xruns ${xruns_before:-?} -> $(json_int status.json xruns) after a 200 ms SIGSTOP" || failc "xruns '$(json_int status.json xruns)' after SIGSTOP (before: ${xruns_before:-?})"
echo "xruns-after-stop $(json_int status.json xruns)" >> figures.txt
mark after-xrun-note
"$AG" note A4 --duration 0.3 --channel 2 || failc "note after SIGCONT rc $?"
nap 0.3
mark after-xrun-end

section "SIGTERM: clean exit within a second"
t0=$(now_ns)
kill -TERM $ag
for ((i = 0; i < 100; i++)); do kill -0 $ag 2>/dev/null || break; nap 0.02; done
t1=$(now_ns)
wait $ag; rc=$?
ms=$(( (t1 - t0) / 1000000 ))
echo "sigterm-exit-ms $ms" >> figures.txt
[[ $rc == 0 ]] && (( ms < 1000 )) && pass "SIGTERM: exit 0 after $ms ms" || failc "SIGTERM: rc $rc after $ms ms"
grep -q "stopped:" ag.txt && pass "log: stopped line" || failc "no 'stopped' line"
mark end

nap 0.2
touch stop-clock; wait $clock
kill -INT $rec; wait $rec
cat arecord.txt
grep -q overrun arecord.txt && failc "arecord overran: capture frames no longer match the clock"
cp "$CAP" capture.wav
echo "--- audiograph log"; cat ag.txt
echo "--- stream log (first/last)"; head -2 stream.txt; tail -2 stream.txt
echo
echo "instrument guest checks: $fails failed"
[[ $fails == 0 ]]
