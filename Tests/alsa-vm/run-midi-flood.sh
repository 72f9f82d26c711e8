#!/bin/bash
# Host side of the MIDI flood rig test (see midi-flood.sh): writes the 1,000,000-event flood,
# boots the rig, then checks the loopback capture goes silent within the release time after
# all-notes-off: within the preset's 0.2 s release, plus up to 0.25 s the measurement cannot
# resolve (the 21 ms playback buffer, arecord's 200 ms buffer at its stop).   SKIP_BUILD=1 uses the built binary; KEEP=1 keeps the work directory.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
make_work midi-flood
# Every program and the drum bank play the sine synth, 2 voices at most; the baseline holds as many
# notes. Not a sampler preset: under the rig's emulated CPU one voice of the sine preset costs
# ~24 % of this period (its one-cycle table is stepped ~19 frames per output frame through the
# 32-tap band-limited kernel), so every note-on of the flood, stealing a voice that fades out
# beside its successor, would be measured rather than the MIDI path.
cat > "$WORK/test.json" <<JSON
{ "name": "flood rig test",
  "programs": { "0-127": "synth" },
  "banks": { "128": { "0-127": "synth" } },
  "parameters": { "synth.voices": 2, "synth.release": 0.05, "fx.enabled": "off" } }
JSON
python3 "$HERE/abuse-midi.py" flood-file "$WORK/flood.bin" "${COUNT:-1000000}" 20261123 || exit 2
"$RIG/run-in-alsa-vm" -v --files "$WORK" --timeout ${TIMEOUT:-200} -- bash "$HERE/midi-flood.sh" "$AG" "$HERE/abuse-midi.py"
status=$?
echo "=== host: capture analysis"
sox "$WORK/capture.wav" -t f32 "$WORK/capture.f32" && python3 "$HERE/abuse-midi.py" silence "$WORK/capture.f32" "$WORK/flood.txt" "${RELEASE:-0.45}" || status=1
[[ $status == 0 ]] && echo "MIDI flood rig test: PASS" || echo "MIDI flood rig test: FAIL"
exit $status
