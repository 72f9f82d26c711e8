# Shared helpers for the scripts that run INSIDE the alsa-vm guest (sourced, not run).
# Every wait polls an observable state: under the rig's software CPU a process start costs 0.05-0.5 s.
fails=0
pass() { echo "PASS: $*"; }
failc() { echo "FAIL: $*"; fails=$((fails + 1)); }
# A sleep without a process start (an exec costs 50-500 ms in the guest): read on a pipe we hold open.
exec {NAPFD}<> <(:)
nap() { read -r -t "$1" -u "$NAPFD"; return 0; }
until_true() { local n=$1 i; shift; for ((i = 0; i < n; i++)); do "$@" && return 0; nap 0.05; done; return 1; }
# A top-level integer of `audiograph status --json` (pretty-printed: top-level keys are indented two
# spaces, so a part's own "voices" deeper down is not mistaken for the total).  usage: json_int FILE KEY
json_int() { sed -n "s/^  \"$2\" : \([0-9]*\).*/\1/p" "$1" | head -1; }
has() { [[ -f $1 ]] && grep -qF -- "$2" "$1"; }
pcm_running() { grep -q "state: RUNNING" "/proc/asound/$1/status" 2>/dev/null; }
