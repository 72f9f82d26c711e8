#!/bin/bash
# Host side of the live-instrument rig test: builds audiograph (release) unless SKIP_BUILD=1,
# boots the alsa-vm rig once to run instrument-live.sh inside it, then analyses the loopback
# capture on the host (instrument-analyse.py: pitches, onsets, silences, latency and jitter).
#   Tests/alsa-vm/run-instrument-live.sh        (SKIP_BUILD=1 uses the built release binary)
#   KEEP=1 keeps the work directory (capture.wav, logs) and prints its path.
# Exit 0 when every guest check and every capture analysis passes.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"

make_work instrument-live
# The sine-oscillator preset and no loops: the instrument starts in seconds under the rig's
# software CPU (the sample-based default preset takes ~25 s to load there). Channel 2 is the
# sine synth the pitch checks listen to. Dry: the onset, length and silence checks would hear the
# reverb tail of the GM default send.
cat > "$WORK/test.json" <<EOF
{ "name": "live rig test", "preset": "$REPO/Presets/Sine.aupreset",
  "channels": { "sampler": [1], "synth": [2] },
  "parameters": { "synth.attack": 0.001, "fx.enabled": "off" } }
EOF
python3 "$HERE/instrument-midi.py" song "$WORK/song.mid" || exit 2

"$RIG/run-in-alsa-vm" -v --files "$WORK" --timeout 240 -- \
    bash "$HERE/instrument-live.sh" "$AG" "$HERE/instrument-midi.py"
status=$?

echo
echo "=== host: capture analysis"
python3 "$HERE/instrument-analyse.py" "$WORK" || status=1
echo
rig_verdict "instrument live rig test"
