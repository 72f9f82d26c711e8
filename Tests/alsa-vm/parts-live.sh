#!/bin/bash
# 16-part checks, INSIDE the alsa-vm guest (see run-parts-live.sh): `audiograph play` on
# hw:Loopback,0,0, arecord on hw:Loopback,1,0, aplaymidi of song.mid (all 16 channels), then a
# note on channel 7 from VirMIDI 2-0 (a keyboard). The host checks the sound.
#   usage: parts-live.sh /path/to/audiograph
set -u
AG=${1:?usage: parts-live.sh /path/to/audiograph}
source "$(dirname "$0")/guest-lib.sh"
CAP=/dev/shm/capture.wav

"$AG" play --device hw:Loopback,0,0 --period 1024 --periods 3 --instrument test.json \
    --connect 'Virtual Raw MIDI 2-0' > ag.txt 2>&1 &
ag=$!
until_true 1200 has ag.txt "audio thread:" || { failc "audiograph did not start"; cat ag.txt; kill $ag; exit 1; }
until_true 200 pcm_running card0/pcm0p/sub0 || failc "playback substream not running"
format=$(sed -n 's/^format: //p' /proc/asound/card0/pcm0p/sub0/hw_params)
arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 --buffer-size=9600 "$CAP" 2> arecord.txt &
rec=$!
until_true 200 pcm_running card0/pcm1c/sub0 || failc "arecord did not start"
nap 0.3

aplaymidi -p AudioGraph:0 song.mid && pass "aplaymidi played song.mid (16 channels)" || failc "aplaymidi rc $?"
nap 0.3
# A keyboard on channel 7: note 100 (E7, 2637 Hz), which the song does not use.
amidi -p hw:VirMIDI,0 -S '96 64 64'
nap 0.2
"$AG" status --json > status.json 2>/dev/null
python3 -c 'import json, sys; parts = [p for p in json.load(open("status.json"))["parts"] if p["channel"] == 7]; sys.exit(not parts or parts[0]["voices"] != 1)' && pass "status --json: channel 7 has 1 voice" \
    || { failc "status --json: channel 7 voices"; cat status.json; }
nap 0.4
amidi -p hw:VirMIDI,0 -S '86 64 00'
nap 0.5
kill -TERM $ag; wait $ag
kill -INT $rec; wait $rec
cp "$CAP" capture.wav
grep -i "ignored\|error\|warning" ag.txt && failc "audiograph reported ignored notes or errors" || pass "no ignored notes reported"
echo "--- audiograph log"; tr '\r' '\n' < ag.txt | grep -v '^$' | tail -8
echo "parts guest checks: $fails failed"
[[ $fails == 0 ]]
