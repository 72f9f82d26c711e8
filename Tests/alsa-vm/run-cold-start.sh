#!/bin/bash
# Start-up in a real kernel: boots the alsa-vm rig once and runs cold-start-probe.py there with
# the default instrument: exec → `AudioGraph` port visible, exec → first note audible on the
# loopback capture, and audiograph's own `ready in` figure. The rig's software CPU runs code
# 10–16× slower than the host, so these are a slow machine's figures (a Raspberry Pi's order).
#   Tests/alsa-vm/run-cold-start.sh [AUDIOGRAPH]   (default: the release build; ALSA_VM_DIR as for the others)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/host-lib.sh"
AG=$(realpath "${1:-$AG}")
make_work cold-start
"$RIG/run-in-alsa-vm" --files "$WORK" --timeout 240 -- python3 "$HERE/cold-start-probe.py" "$AG" "$REPO/Instruments/default.json"
