#!/bin/bash
# Host side of the rtpmidid autoconnect rig test (issue 14) and CLI-held controllers (issue 8):
# builds audiograph (release) unless SKIP_BUILD=1, boots the alsa-vm rig once to run
# autoconnect-rtpmidid.sh inside it, then measures the loopback capture on the host: the
# session's notes at the right pitch, the note the session left held released when it ended,
# and the CLI's note held by the CLI's pedal until `cc 64 0` (autoconnect-analyse.py).
#   Tests/alsa-vm/run-autoconnect-rtpmidid.sh     (the rig is Tests/alsa-vm/run-in-alsa-vm; ALSA_VM_DIR overrides it)
#   KEEP=1 keeps the work directory (capture.wav, logs) and prints its path.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"

make_work autoconnect-rtpmidid
"$RIG/run-in-alsa-vm" -v --files "$WORK" --timeout 240 -- \
    bash "$HERE/autoconnect-rtpmidid.sh" "$AG" "$HERE/rtpmidid-standin.py" "$HERE/sine-rig.json"
status=$?

echo
echo "=== host: capture analysis"
python3 "$HERE/autoconnect-analyse.py" "$WORK" || status=1
echo
rig_verdict "autoconnect rtpmidid rig test"
