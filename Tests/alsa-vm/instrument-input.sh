#!/bin/bash
# Mic/line input of the live instrument. Runs INSIDE the alsa-vm guest (see run-instrument-input.sh).
#   usage: instrument-input.sh /path/to/audiograph
# audiograph plays to hw:Loopback,0,0 and captures its mic bus from hw:Loopback,1,1; aplay feeds a
# 330 Hz tone into hw:Loopback,0,1 and the mic chain shifts it up an octave; arecord keeps what
# comes out (hw:Loopback,1,0) for the host to measure. The guest checks the status readouts.
set -u
AG=${1:?usage: instrument-input.sh /path/to/audiograph}
source "$(dirname "$0")/guest-lib.sh"
num() { sed -n "s/.*\"$2\" : \([-0-9.]*\).*/\1/p" "$1" | head -1; }
rm -f -- *.txt capture.wav
cp tone330.wav /dev/shm/  # played from RAM: a read waiting on the 9p share would gap the tone

"$AG" play --device hw:Loopback,0,0 --input hw:Loopback,1,1 --period 1024 --periods 3 --instrument test.json \
    --set mic.effect=pitchshift --set mic.pitchshift.semitones=12 --set bus.sampler.mute=on > ag.txt 2>&1 &
ag=$!
until_true 1200 has ag.txt "audio thread:" || { failc "audiograph did not start"; cat ag.txt; kill $ag; exit 1; }
cat ag.txt
grep -q "^audiograph: capture: hw:Loopback,1,1 capture" ag.txt && pass "capture opened and its negotiated settings printed" || failc "no capture line"
format=$(sed -n 's/^format: //p' /proc/asound/card0/pcm0p/sub0/hw_params)
arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 /dev/shm/capture.wav 2> arecord.txt &
rec=$!
until_true 200 pcm_running card0/pcm1c/sub0 || failc "arecord did not start"
aplay -q -D plughw:Loopback,0,1 /dev/shm/tone330.wav &
player=$!
nap 1.5
"$AG" status --json > status.json 2>&1; cat status.json
pitch=$(num status.json detectedPitchHz); peak=$(num status.json inputPeakDecibels)
awk -v p="${pitch:-0}" 'BEGIN { exit !(p > 328 && p < 332) }' && pass "status: detected input pitch $pitch Hz" || failc "detected pitch '${pitch}'"
peak=$(sed -n '/inputPeakDecibels/,/]/p' status.json | sed -n 2p | tr -d ' ,')
awk -v p="${peak:--200}" 'BEGIN { exit !(p > -9 && p < -3) }' && pass "status: input peak $peak dBFS (tone at -6 dBFS)" || failc "input peak '${peak}'"
wait $player
nap 0.5
kill -INT $rec; wait $rec
kill -TERM $ag; wait $ag && pass "SIGTERM: exit 0" || failc "audiograph exit status"
cp /dev/shm/capture.wav capture.wav
echo "instrument input guest checks: $fails failed"
[[ $fails == 0 ]]
