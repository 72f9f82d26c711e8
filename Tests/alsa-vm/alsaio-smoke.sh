#!/bin/bash
# ALSAIO end-to-end checks. Runs INSIDE the alsa-vm guest (see run-alsaio-smoke.sh, which
# boots the VM once, provides notes.mid and tone660.wav in the working directory, and
# analyses the WAV captures on the host afterwards).
#   usage: alsaio-smoke.sh /path/to/alsaio-probe
# Prints PASS/FAIL lines; exit 0 = all passed. Every step waits for an observable state
# (a log line, a PCM substream RUNNING) instead of sleeping a fixed time: process start
# costs 0.05-0.5 s under the rig's software CPU.
set -u
PROBE=${1:?usage: alsaio-smoke.sh /path/to/alsaio-probe}
fails=0
pass() { echo "PASS: $*"; }
failc() { echo "FAIL: $*"; fails=$((fails + 1)); }
until_true() { local n=$1 i; shift; for ((i = 0; i < n; i++)); do "$@" && return 0; sleep 0.1; done; return 1; }
has() { [[ -f $1 ]] && grep -qF -- "$2" "$1"; }
pcm_running() { grep -q "state: RUNNING" "/proc/asound/$1/status" 2>/dev/null; }
section() { echo; echo "=== $*"; }
field() { awk -v k="$2" '{for(i=1;i<NF;i++) if($i==k){print $(i+1); exit}}' "$1"; }   # word after KEY
rm -f -- *.txt play-cap.wav rec-cap.wav stop-listen

section "sender with no AudioGraph running"
out=$("$PROBE" send 60 0.05 2>&1); rc=$?
echo "$out"
[[ $rc != 0 && $out == *"AudioGraph is not running"* ]] && pass "sender reports 'AudioGraph is not running'" || failc "sender error: rc $rc"

section "listener: AudioGraph:MIDI In, autoconnect at start"
"$PROBE" listen 150 --until-file stop-listen > listen.txt 2>&1 &
listener=$!
until_true 150 has listen.txt "ready " || failc "listener not ready"
cat listen.txt
aconnect -l > aconnect.txt
AG=$(awk -F'[ :]' "/'AudioGraph'/{print \$2; exit}" aconnect.txt)
VIR0=$(awk -F'[ :]' "/'Virtual Raw MIDI 2-0'/{print \$2; exit}" aconnect.txt)
grep -A3 "'AudioGraph'" aconnect.txt
grep -A1 "'AudioGraph'" aconnect.txt | grep -q "0 'MIDI In *'" && pass "aconnect -l lists AudioGraph ($AG):0 'MIDI In'" || failc "AudioGraph:MIDI In not in aconnect -l"
grep -qi announcements aconnect.txt && failc "private announce port is visible" || pass "private announce port hidden from aconnect -l"
until_true 50 has listen.txt "connected $VIR0:0 " && pass "VirMIDI $VIR0:0 autoconnected at start" || failc "VirMIDI not autoconnected"
grep -q "connected 14:0 " listen.txt && failc "Midi Through was autoconnected" || pass "Midi Through excluded"

section "aplaymidi -p AudioGraph:0 notes.mid"
aplaymidi -p AudioGraph:0 notes.mid
until_true 50 has listen.txt "note: 67, velocity: 0)" || true
n_on=$(grep -c 'message noteOn(channel: 0, note: \(60\|64\|67\), velocity: 100)' listen.txt)
n_off=$(grep -c 'message noteOff(channel: 0, note: \(60\|64\|67\)' listen.txt)
[[ $n_on == 3 && $n_off == 3 ]] && pass "aplaymidi delivered 3 note-ons and 3 note-offs" || failc "aplaymidi: $n_on note-ons, $n_off note-offs"

section "raw MIDI into VirMIDI (autoconnected), then aconnect -d -> sourceGone releases the held note + pedal"
amidi -p hw:VirMIDI,0 -S '90 3E 50 B0 40 7F'
until_true 50 has listen.txt "controller: 64, value: 127) from $VIR0:0" && pass "bytes from VirMIDI arrived via autoconnect" || failc "nothing from VirMIDI"
aconnect -d "$VIR0:0" "$AG:0"
until_true 50 has listen.txt "gone $VIR0:0 " || true
grep "gone $VIR0:0 " listen.txt
grep "gone $VIR0:0 " listen.txt | grep -q 'noteOff(channel: 0, note: 62, velocity: 0), MIDI.MIDIMessage.controlChange(channel: 0, controller: 64, value: 0)' \
    && pass "unsubscribe -> sourceGone with note-off 62 and sustain off" || failc "no sourceGone/release for $VIR0:0"

section "a port created after start is autoconnected within 1 s; killing it yields sourceGone"
"$PROBE" source rtp-session > source.txt 2>&1 &
source=$!
until_true 100 has source.txt "source sent held chord" || failc "source probe never subscribed"
cat source.txt
SRC=$(awk '/source ready/{print $3; exit}' source.txt)
t_ready=$(field source.txt at)
# The client number may have been used before (aplaymidi's): take the last connection of SRC.
t_conn=$(awk -v s="$SRC" '$1=="connected" && $2==s {t=$4} END{print t}' listen.txt)
if [[ -n $t_conn && -n $t_ready ]]; then
    ms=$(( (t_conn - t_ready) / 1000000 ))
    (( ms < 1000 )) && pass "new port $SRC autoconnected $ms ms after it appeared" || failc "autoconnect took $ms ms"
else
    failc "new port $SRC not autoconnected"
fi
until_true 50 has listen.txt "controller: 64, value: 127) from $SRC" || failc "chord from $SRC not received"
kill -9 $source; wait $source 2>/dev/null
until_true 50 has listen.txt "release [MIDI.MIDIMessage.noteOff(channel: 0, note: 60" || true
grep "gone $SRC " listen.txt
grep "gone $SRC " listen.txt | grep -q 'note: 60, velocity: 0), MIDI.MIDIMessage.noteOff(channel: 0, note: 64, velocity: 0), MIDI.MIDIMessage.controlChange(channel: 0, controller: 64, value: 0)' \
    && pass "killed source -> sourceGone releases 60, 64 and the pedal" || failc "no sourceGone for killed $SRC"

section "SequencerSender (audiograph note) -> AudioGraph:MIDI In"
"$PROBE" send 72 0.1
until_true 50 has listen.txt "noteOff(channel: 0, note: 72" || true
grep -q "noteOn(channel: 0, note: 72, velocity: 100)" listen.txt && grep -q "noteOff(channel: 0, note: 72" listen.txt \
    && pass "sender note 72 arrived (on + off)" || failc "sender note 72 missing"

section "MIDI card unplugged (platform unbind of snd-virmidi) -> sourceGone for each of its ports"
VIR1=$(awk -F'[ :]' "/'Virtual Raw MIDI 2-1'/{print \$2; exit}" aconnect.txt)
amidi -p hw:VirMIDI,1 -S '90 30 40'
until_true 50 has listen.txt "note: 48, velocity: 64) from $VIR1:0" || failc "nothing from VirMIDI 2-1"
echo snd_virmidi.0 > /sys/bus/platform/drivers/snd_virmidi/unbind
until_true 50 has listen.txt "gone $VIR1:0 " || true
grep "^gone" listen.txt | tail -4
grep "gone $VIR1:0 " listen.txt | grep -q 'noteOff(channel: 0, note: 48, velocity: 0)' \
    && pass "unplugged card: sourceGone $VIR1:0 releases note 48" || failc "no sourceGone for unplugged $VIR1:0"
n_gone=$(grep -c "^gone 2[4-7]:0 " listen.txt)
[[ $n_gone == 4 ]] && pass "each VirMIDI port reported gone exactly once ($n_gone)" || failc "VirMIDI gone lines: $n_gone (want 4)"

touch stop-listen; wait $listener
echo "--- listener log"; cat listen.txt

section "PCMDevice playback 440 Hz -> hw:Loopback,0,0, arecord on plughw:Loopback,1,0 (host measures play-cap.wav)"
# Captures go to /dev/shm (RAM) and are copied at the end: a write to the 9p share waits on the host,
# and a capture blocked there loses sound however right the software is.
arecord -q -D plughw:Loopback,1,0 -f S16_LE -r 48000 -c 2 /dev/shm/play-cap.wav &
rec=$!
until_true 100 pcm_running card0/pcm1c/sub0 || failc "arecord did not start"
"$PROBE" play hw:Loopback,0,0 440 2 1024 3 > play.txt 2>&1; prc=$?
sleep 0.2; kill -INT $rec; wait $rec
cat play.txt
# xruns are reported, not failed on: under a loaded host the rig's software CPU can miss a
# 64 ms deadline (seen once at load 8); the host measures the audio itself.
xr() { awk '/ xruns /{for(i=1;i<=NF;i++) if($i=="xruns") print $(i+1)}' "$1" | tr -d ';'; }
[[ $prc == 0 ]] && grep -q "^play 96000 frames" play.txt && pass "PCMDevice played 96000 frames ($(xr play.txt) xruns)" || failc "PCMDevice playback rc $prc"

section "aplay 660 Hz -> plughw:Loopback,0,1 -> PCMDevice capture hw:Loopback,1,1 (host measures rec-cap.wav)"
"$PROBE" record hw:Loopback,1,1 4 /dev/shm/rec-cap.wav 1024 3 > rec.txt 2>&1 &
recorder=$!
until_true 100 pcm_running card0/pcm1c/sub1 || failc "PCMDevice capture did not start"
cp tone660.wav /dev/shm/  # played from RAM: a read waiting on the 9p share would gap the tone
aplay -q -D plughw:Loopback,0,1 /dev/shm/tone660.wav
wait $recorder; rrc=$?
cat rec.txt
[[ $rrc == 0 ]] && grep -q "^record 192000 frames" rec.txt && pass "PCMDevice captured 192000 frames ($(xr rec.txt) xruns)" || failc "PCMDevice capture rc $rrc"

section "SIGSTOP/SIGCONT of the writer -> underrun recovered and counted"
"$PROBE" play hw:Loopback,0,2 440 4 1024 3 > xrun.txt 2>&1 &
writer=$!
until_true 100 pcm_running card0/pcm0p/sub2 || failc "writer did not start"
sleep 0.5; kill -STOP $writer; sleep 0.5; kill -CONT $writer
wait $writer; xrc=$?
cat xrun.txt
xruns=$(xr xrun.txt)
[[ $xrc == 0 && ${xruns:-0} -ge 1 ]] && grep -q "^play 192000 frames" xrun.txt \
    && pass "xrun recovered and counted ($xruns), all 192000 frames written" || failc "xrun test: rc $xrc xruns ${xruns:-?}"

section "PCM device busy, then unplugged (platform unbind of snd-dummy) -> deviceLost"
"$PROBE" play hw:Dummy,0,0 440 20 1024 3 > lost.txt 2>&1 &
writer=$!
until_true 100 pcm_running card1/pcm0p/sub0 || failc "dummy writer did not start"
out=$(timeout 10 "$PROBE" play hw:Dummy,0,0 440 0.1 2>&1); rc=$?
echo "$out"
[[ $rc == 1 && $out == *"busy"* ]] && pass "second opener fails at once with EBUSY" || failc "second opener rc $rc"
echo snd_dummy.0 > /sys/bus/platform/drivers/snd_dummy/unbind
wait $writer; lrc=$?
cat lost.txt
[[ $lrc == 1 ]] && grep -q "device lost (-19)" lost.txt && pass "unplugged PCM reported deviceLost(-ENODEV)" || failc "unplug: rc $lrc"

section "real-time thread"
"$PROBE" rt | tee rt.txt
grep -q "SCHED_FIFO priority 80" rt.txt && pass "SCHED_FIFO thread as root" || failc "no SCHED_FIFO"

cp /dev/shm/play-cap.wav /dev/shm/rec-cap.wav .
echo
echo "alsaio guest checks: $fails failed"
[[ $fails == 0 ]]
