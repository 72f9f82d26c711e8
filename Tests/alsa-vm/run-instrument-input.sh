#!/bin/bash
# Host side of the mic/line input rig test: a 330 Hz tone captured by `audiograph play --input`,
# pitch-shifted an octave up by the mic chain, must come out of the loopback card at 660 Hz.
#   Tests/alsa-vm/run-instrument-input.sh       (SKIP_BUILD=1 uses the built release binary)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
make_work instrument-input
cat > "$WORK/test.json" <<JSON
{ "name": "input rig test", "preset": "$REPO/Presets/Sine.aupreset", "parameters": { "bus.mic.gain": 0 } }
JSON
sox -n -r 48000 -c 2 -b 16 "$WORK/tone330.wav" synth 3 sine 330 vol 0.5 || exit 2
"$RIG/run-in-alsa-vm" --files "$WORK" --timeout 200 -- bash "$HERE/instrument-input.sh" "$AG"
status=$?
echo "=== host: the mic chain's output, an octave above the 330 Hz input"
# The capture is float (what audiograph negotiated); wavcheck reads PCM.
sox "$WORK/capture.wav" -b 16 "$WORK/capture16.wav" 2>/dev/null || status=1
python3 "$RIG/wavcheck.py" "$WORK/capture16.wav" --expect-hz 660 --tol-hz 2 --min-seconds 2.5 || status=1
rig_verdict "instrument input rig test"
