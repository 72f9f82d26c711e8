#!/bin/bash
# Host side of the ALSAIO rig test: builds alsaio-probe (release), boots the alsa-vm rig
# once to run alsaio-smoke.sh inside it, then measures the two PCM captures on the host.
#   Tests/alsa-vm/run-alsaio-smoke.sh            (SKIP_BUILD=1 uses the built probe)
# Exit 0 when every guest check and both capture analyses pass.
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
RIG=${ALSA_VM_DIR:-$REPO/Tests/alsa-vm}
cd "$REPO" || exit 2
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    swift build -c release --product alsaio-probe || exit 2
fi
PROBE=$(swift build -c release --show-bin-path)/alsaio-probe
[[ -x $PROBE ]] || { echo "missing $PROBE"; exit 2; }

WORK=$(mktemp -d /tmp/alsaio-smoke.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# C4 E4 G4, 100 ms each, as a format-0 SMF (480 ticks/quarter, 500000 us/quarter).
python3 - "$WORK/notes.mid" <<'PY'
import struct, sys
ev = bytearray(b"\x00\xff\x51\x03\x07\xa1\x20")
for note in (60, 64, 67):
    ev += bytes([0x00, 0x90, note, 100, 0x60, 0x80, note, 0])
ev += b"\x00\xff\x2f\x00"
open(sys.argv[1], "wb").write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(ev)) + ev)
PY
sox -n -r 48000 -c 2 -b 16 "$WORK/tone660.wav" synth 2 sine 660 vol 0.5 || exit 2

"$RIG/run-in-alsa-vm" -v --files "$WORK" --timeout 180 -- bash "$REPO/Tests/alsa-vm/alsaio-smoke.sh" "$PROBE"
status=$?

echo
echo "=== host: PCMDevice playback capture (expect 440 Hz for ~2 s)"
python3 "$RIG/wavcheck.py" "$WORK/play-cap.wav" --expect-hz 440 --tol-hz 3 --min-rms 0.3 --min-seconds 1.95 || status=1
echo
echo "=== host: PCMDevice capture (expect 660 Hz for ~2 s)"
python3 "$RIG/wavcheck.py" "$WORK/rec-cap.wav" --expect-hz 660 --tol-hz 3 --min-rms 0.3 --min-seconds 1.95 || status=1
echo
[[ $status == 0 ]] && echo "alsaio rig test: PASS" || echo "alsaio rig test: FAIL"
exit $status
