# Shared helpers for the scripts that run INSIDE the alsa-vm guest (sourced, not run).
# Every wait polls an observable state: under the rig's software CPU a process start costs 0.05-0.5 s.
fails=0
pass() { echo "PASS: $*"; }
failc() { echo "FAIL: $*"; fails=$((fails + 1)); }
# A sleep without a process start (an exec costs 50-500 ms in the guest): read on a pipe we hold open.
exec {NAPFD}<> <(:)
nap() { read -r -t "$1" -u "$NAPFD"; return 0; }
until_true() { local n=$1 i; shift; for ((i = 0; i < n; i++)); do "$@" && return 0; nap 0.05; done; return 1; }
has() { [[ -f $1 ]] && grep -qF -- "$2" "$1"; }
pcm_running() { grep -q "state: RUNNING" "/proc/asound/$1/status" 2>/dev/null; }
