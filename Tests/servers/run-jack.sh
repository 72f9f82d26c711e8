#!/bin/bash
# `play --driver jack`: the native JACK client against jackd2's dummy driver, then against
# PipeWire's JACK (pw-jack). Recorded by a JACK client (jack_rec). No sound card needed.
#   1. jackd: a held A4 while the buffer size changes live 256 → 64 → 1024 → 256 (jack_bufsize):
#      no crash, 440 Hz, no discontinuity beyond the changes themselves, the changes logged
#   2. jackd killed mid-song and restarted: reconnected within 2 s of its return, no busy loop while
#      it is away, the note released meanwhile stays released, the one held across it ends on time
#   3. pw-jack: the same client in the PipeWire graph: 440 Hz; the quantum forced 64 → 1024
#      (clock.force-quantum; jack_bufsize changes nothing there) followed live
# SKIP_BUILD=1 uses the built binary; KEEP=1 keeps the temporary directory.
source "$(dirname "$0")/lib.sh"
need_packages jackd2 "${PIPEWIRE_PACKAGES[@]}"
sine_instrument
start_dbus
RT=""
chrt -f 80 true 2> /dev/null && RT="chrt -f 80"   # the recorder's disk thread, as in alsa-server-checks.sh
at() { echo "$(now) - $1" | bc -l; }   # seconds since a `now` stamp
ports_up() { jack_lsp 2> /dev/null | grep -q "^AudioGraph:out_R$"; }

echo "== 1. jackd2 $(jackd --version 2>/dev/null | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -1), buffer size changed live"
start_jackd 256
python3 "$SERVERS/song.py" "$T/held.mid" 500:9500:69
"$AG" play --driver jack --jack-connect --instrument "$T/test.json" --midi "$T/held.mid" > "$T/ag-bufsize.log" 2>&1 &
ag=$!
until_true 150 ports_up || { fail "no AudioGraph ports"; cat "$T/ag-bufsize.log"; }
grep -m1 "playback:" "$T/ag-bufsize.log"
# A reference client in the same graph (jack_simple_client: a 240 Hz sine), recorded beside ours: a
# jump in both at once is the graph's or the recorder's on a starved machine, not audiograph's.
start_daemon reference jack_simple_client
until_true 50 eval 'jack_lsp | grep -q jack_simple_client:output1'
start_daemon rec_bufsize $RT jack_rec -f "$T/bufsize.wav" -d 9 -b 32 AudioGraph:out_L jack_simple_client:output1
t0=$(now)
changes=()
for frames in 64 1024 256; do
    sleep 2
    changes+=("$(at "$t0")")
    jack_bufsize "$frames" > /dev/null || fail "jack_bufsize $frames"
done
timeout 20 tail --pid=$ag -f /dev/null
wait $ag && pass "played through the changes, exit 0" || fail "play exit status"
kill_daemon rec_bufsize INT
grep -E "buffer size|stopped" "$T/ag-bufsize.log"
[[ $(grep -c "JACK buffer size" "$T/ag-bufsize.log") == 3 ]] && pass "followed 256 → 64 → 1024 → 256" || fail "buffer-size changes not all seen"
python3 "$SERVERS/analyse.py" pitch "$T/bufsize.wav" --expect-hz 440 --tol-cents 2 && pass "pitch 440 Hz" || fail "pitch"
allow=$(IFS=,; echo "${changes[*]}")
python3 "$SERVERS/analyse.py" continuity "$T/bufsize.wav" --hz 440 --reference-hz 240 --allow "$allow" \
    && pass "no discontinuity beyond the buffer-size changes (at $allow s)" || fail "discontinuities (above)"
kill_daemon reference TERM

echo "== 2. jackd killed and restarted mid-song"
python3 "$SERVERS/song.py" "$T/restart.mid" 500:3000:69 1000:7000:76 9500:1000:72
"$AG" play --driver jack --jack-connect --instrument "$T/test.json" --midi "$T/restart.mid" > "$T/ag-restart.log" 2>&1 &
ag=$!
until_true 150 has "$T/ag-restart.log" "ready in" || fail "audiograph did not start"
t0=$(now); ticks0=$(cpu_ticks $ag)
sleep 1.8
t1=$(now); ticks1=$(cpu_ticks $ag)
kill_daemon jackd
until_true 30 has "$T/ag-restart.log" "JACK server gone" && pass "the server's shutdown noticed" || fail "shutdown not noticed"
grep -m1 "JACK server gone" "$T/ag-restart.log"
sleep 0.3
t2=$(now); ticks2=$(cpu_ticks $ag)
sleep 2
t3=$(now); ticks3=$(cpu_ticks $ag)
playing=$(echo "($ticks1 - $ticks0) / $TICKS / ($t1 - $t0) * 100" | bc -l)
outage=$(echo "($ticks3 - $ticks2) / $TICKS / ($t3 - $t2) * 100" | bc -l)
printf "  CPU of audiograph: %.1f %% of a core while playing, %.1f %% while the server is away\n" "$playing" "$outage"
(( $(echo "$outage < 25" | bc -l) )) && pass "no busy loop while the server is away" || fail "CPU while away: $outage %"
start_jackd 256
back=$(now)
until_true 40 ports_up || true
if has "$T/ag-restart.log" "JACK server back"; then
    after=$(at "$back")
    printf "  reconnected %.2f s after the server was back\n" "$after"
    (( $(echo "$after < 2" | bc -l) )) && pass "reconnected within 2 s of the server's return" || fail "reconnected after $after s"
else
    fail "not reconnected within 4 s"
fi
start_daemon rec_restart $RT jack_rec -f "$T/restart.wav" -d 6.5 -b 32 AudioGraph:out_L AudioGraph:out_R
timeout 20 tail --pid=$ag -f /dev/null
wait $ag && pass "song finished, exit 0" || fail "play exit status"
kill_daemon rec_restart INT
grep -E "JACK server|stopped" "$T/ag-restart.log"
python3 "$SERVERS/analyse.py" segments "$T/restart.wav" --expect 659.26,523.25 --absent 440 --gaps 1.3 \
    && pass "after the restart: E5 (held across) released, C5 played, A4 (released meanwhile) silent" \
    || fail "notes after the restart"
kill_daemon jackd TERM

echo "== 3. PipeWire's JACK (pw-jack)"
pipewire_config
start_pipewire
python3 "$SERVERS/song.py" "$T/pw.mid" 500:7500:69
pw-jack "$AG" play --driver jack --instrument "$T/test.json" --midi "$T/pw.mid" > "$T/ag-pwjack.log" 2>&1 &
ag=$!
until_true 150 has "$T/ag-pwjack.log" "ready in" || fail "audiograph did not start under pw-jack"
grep -m1 "playback:" "$T/ag-pwjack.log"
start_daemon reference pw-jack jack_simple_client
until_true 50 eval 'pw-jack jack_lsp | grep -q jack_simple_client:output1'
start_daemon rec_pw $RT pw-jack jack_rec -f "$T/pwjack.wav" -d 8 -b 32 AudioGraph:out_L jack_simple_client:output1
t0=$(now)
changes=()
for quantum in 64 1024; do
    sleep 2
    changes+=("$(at "$t0")")
    pw-metadata -n settings 0 clock.force-quantum "$quantum" > /dev/null
done
timeout 20 tail --pid=$ag -f /dev/null
wait $ag && pass "played through the quantum changes, exit 0" || fail "play exit status"
pw-metadata -n settings 0 clock.force-quantum 0 > /dev/null
kill_daemon rec_pw INT
grep -E "buffer size|stopped" "$T/ag-pwjack.log"
[[ $(grep -c "JACK buffer size" "$T/ag-pwjack.log") -ge 2 ]] && pass "followed the quantum 64 → 1024" || fail "quantum changes not seen"
python3 "$SERVERS/analyse.py" pitch "$T/pwjack.wav" --expect-hz 440 --tol-cents 2 && pass "pitch 440 Hz in the PipeWire graph" || fail "pitch"
allow=$(IFS=,; echo "${changes[*]}")
python3 "$SERVERS/analyse.py" continuity "$T/pwjack.wav" --hz 440 --reference-hz 240 --allow "$allow" \
    && pass "no discontinuity beyond the quantum changes" || fail "discontinuities (above)"
kill_daemon reference TERM

echo "jack server test: $fails failed"
[[ $fails == 0 ]]
