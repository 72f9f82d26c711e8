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
# The abuse tests' set-up: `audiograph play` (test.json) on hw:Loopback,0,0 at a 128-frame period
# (PERIODS of them, default 8) logging to ag.txt, and arecord of hw:Loopback,1,0 into $CAP in the
# format play negotiated. Sets ag and rec (their pids); exits when play does not start.
CAP=/dev/shm/capture.wav
play_and_capture() {
    "$1" play --device hw:Loopback,0,0 --period 128 --periods "${PERIODS:-8}" --instrument test.json > ag.txt 2>&1 &
    ag=$!
    until_true 1200 has ag.txt "audio thread:" || { failc "audiograph did not start"; cat ag.txt; kill $ag; exit 1; }
    until_true 200 pcm_running card0/pcm0p/sub0 || failc "playback substream not running"
    grep "playback:" ag.txt
    local format; format=$(sed -n 's/^format: //p' /proc/asound/card0/pcm0p/sub0/hw_params)
    arecord -q -D hw:Loopback,1,0 -f "$format" -r 48000 -c 2 --buffer-size=9600 "$CAP" 2> arecord.txt &
    rec=$!
    until_true 200 pcm_running card0/pcm1c/sub0 || failc "arecord did not start"
}
# The abuse tests' start (midi-flood.sh, source-vanish.sh): AG and HELPER from their arguments,
# then play_and_capture.  usage: start_abuse_test "$@"
start_abuse_test() {
    AG=${1:?usage: $0 AUDIOGRAPH ABUSE-MIDI.PY}
    HELPER=${2:?usage: $0 AUDIOGRAPH ABUSE-MIDI.PY}
    play_and_capture "$AG"
}
# Ends play_and_capture: notes the stop time in RESULTS, stops arecord, then play (SIGTERM must
# exit 0), keeps the capture, shows the log's last LINES lines and returns the guest checks'
# verdict.  usage: stop_play_and_capture NAME RESULTS LINES  (last command of a guest script)
stop_play_and_capture() {
    echo "capture-stop uptime=$(cut -d' ' -f1 /proc/uptime)" >> "$2"
    kill -INT $rec; wait $rec
    kill -TERM $ag; wait $ag && pass "SIGTERM: exit 0" || failc "audiograph exit status"
    cp "$CAP" capture.wav
    echo "--- audiograph log"; tr '\r' '\n' < ag.txt | grep -v '^$' | tail -"$3"
    echo "$1 guest checks: $fails failed"
    [[ $fails == 0 ]]
}
# KEY=value from the line starting with PHASE in FILE.  usage: field FILE PHASE KEY
field() { sed -n "s/^$2 .*\b$3=\([0-9.-]*\).*/\1/p" "$1" | head -1; }
