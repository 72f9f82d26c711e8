#!/bin/bash
# `play --driver jack`: the native JACK client against jackd2's dummy driver, then against
# PipeWire's JACK (pw-jack). Recorded by a JACK client (jack_rec). No sound card needed.
#   1. jackd: a held A4 while the buffer size changes live 256 → 64 → 1024 → 256 (jack_bufsize):
#      no crash, 440 Hz, no discontinuity beyond the changes themselves (and the cycles jackd
#      reported lost while our callback stayed under a period: the machine's scheduling), the
#      changes logged; a take with a jump while jackd lost such cycles is played once more
#   2. jackd killed mid-song and restarted: reconnected within 2 s of its return, no busy loop while
#      it is away, the note released meanwhile stays released, the one held across it ends on time
#   3. JACK MIDI in and audio in: jack_midiseq looping C4 and G4 12000 frames apart into midi_in,
#      recorded: the right notes, in turn, each at its frame (sample-accurate, whatever the buffer
#      boundaries; a take during which jackd lost cycles is recorded again, up to three); the
#      sequencer killed mid-note: the note released; jack_simple_client's sine
#      into in_L/in_R: `status` reads its level on the mic/line bus; jackd restarted at 44.1 kHz:
#      the session prepared again at the new rate, a note 440 Hz there
#   4. ALSA's `jack` plugin (`--device jack`): jackd killed under it: declared lost (the 2 s stall
#      limit), no hang; back when jackd is; SIGTERM ends it
#   5. pw-jack: the same client in the PipeWire graph: 440 Hz; the quantum forced 64 → 1024
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
# $T/NAME.wav (out_L beside the 240 Hz reference), recorded across the buffer-size changes at the
# times in $changes: 440 Hz, and no discontinuity but at those times (and, given LOST, at cycles
# the server reported lost: analyse.py --xruns-at).
# Returns 3 instead of failing when RETRY is set and the server reported cycles lost to scheduling
# (LOST): so many that one of them was not matched to its jump by time, the take is played again.
#   usage: sine_across_changes NAME WHERE [LOST [RETRY]]   (WHERE ends the pitch line: "" or " in the PipeWire graph")
sine_across_changes() {
    python3 "$SERVERS/analyse.py" pitch "$T/$1.wav" --expect-hz 440 --tol-cents 2 && pass "pitch 440 Hz$2" || fail "pitch"
    local allow; allow=$(IFS=,; echo "${changes[*]}")
    if python3 "$SERVERS/analyse.py" continuity "$T/$1.wav" --hz 440 --reference-hz 240 --allow "$allow" ${3:+--xruns-at "$3"}; then
        pass "no discontinuity beyond the buffer-size changes (at $allow s)${3:+ and the cycles jackd reported lost}"
    elif [[ -n ${3:-} && -n ${4:-} ]]; then
        echo "RETRY: a discontinuity while jackd lost cycles to the machine's scheduling: playing the take once more"
        return 3
    else
        fail "discontinuities (above)"
    fi
}
# The cycles jackd reported lost since the stamp $1 (taken as the recording starts), when our
# callback's longest run (wall clock, preemption included: "max N%" of the last period, 256
# frames) stayed under the shortest buffer of the run (64 frames): such a cycle was lost to the
# machine's scheduling, not to our work. Nothing otherwise, and every jump then counts.
lost_to_scheduling() {
    local worst; worst=$(grep -o 'max *[0-9.]*%' "$T/ag-bufsize.log" | tail -1 | tr -dc '0-9.')
    local lost; lost=$(jack_xruns "$1")
    [[ -n $worst && -n $lost ]] || return 0
    local cycles; cycles=$(tr -cd , <<< "$lost" | wc -c)
    if (( $(echo "$worst * 256 < 100 * 64" | bc -l) )); then
        echo "  jackd reported $((cycles + 1)) lost cycles; our callback took at most $worst % of 256 frames, under 64" >&2
        echo "$lost"
    else
        echo "  jackd reported $((cycles + 1)) lost cycles, but our callback took $worst % of 256 frames, over 64: not excused" >&2
    fi
}

echo "== 1. jackd2 $(jackd --version 2>/dev/null | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -1), buffer size changed live"
start_jackd 256
# One take: a held A4 through the three changes. RETRY (the first take): see sine_across_changes.
bufsize_take() {
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
    sine_across_changes bufsize "" "$(lost_to_scheduling "$t0")" "${1:-}"; local verdict=$?
    kill_daemon reference TERM
    return $verdict
}
bufsize_take retry || { [[ $? == 3 ]] && bufsize_take; }

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

echo "== 3. JACK MIDI in (jack_midiseq), audio in (jack_simple_client), a sample-rate change"
start_jackd 256
"$AG" play --driver jack --jack-midi --input jack --jack-connect --instrument "$T/test.json" > "$T/ag-midi.log" 2>&1 &
ag=$!
until_true 150 has "$T/ag-midi.log" "ready in" || fail "audiograph did not start"
grep -m1 "JACK MIDI in" "$T/ag-midi.log"
# A 0.5 s loop: C4 at frame 0, G4 at 12000, 6000 frames each. 12000 is no multiple of the 256-frame
# buffer, so the onsets fall at every offset within a cycle.
start_daemon midiseq jack_midiseq agseq 24000 0 60 6000 12000 67 6000
until_true 50 eval 'jack_lsp | grep -q "^agseq:out"'
jack_connect agseq:out AudioGraph:midi_in || fail "cannot connect the sequencer to AudioGraph:midi_in"
# A take in which jackd lost cycles to the machine's scheduling is recorded again, saying so: a client
# skipped for a cycle, or the recorder's cycle lost during an attack, moves an onset by any amount.
# A take that fails with no cycle lost fails; so does the third.
for take in 1 2 3; do
    t0=$(now)
    python3 "$SERVERS/timing.py" jack-record "$T/midi.wav" --port AudioGraph:out_L --seconds 3
    if python3 "$SERVERS/analyse.py" onsets "$T/midi.wav" --notes 261.63,392.00 --spacing 12000 --cycle 256; then
        pass "JACK MIDI: C4 and G4 in turn, each at its frame (sample-accurate)"
        break
    fi
    lost=$(jack_xruns "$t0")
    if [[ -n $lost && $take != 3 ]]; then
        echo "RETRY: jackd lost cycles during the take (at $lost s): recording once more"
    else
        fail "JACK MIDI timing (above)${lost:+; jackd lost cycles in every take}"
        break
    fi
done
kill_daemon midiseq TERM
# A note held when its source leaves: released (nothing else will ever send its note-off).
start_daemon midiseq2 jack_midiseq agseq2 96000 3000 64 90000  # held 1.875 s of every 2 s
until_true 50 eval 'jack_lsp | grep -q "^agseq2:out"'
jack_connect agseq2:out AudioGraph:midi_in
voices() { control status --json | python3 -c 'import json,sys; print(json.loads(sys.stdin.read().split("\n",1)[1])["voices"])'; }
until_true 40 eval '[[ $(voices) == 1 ]]' && pass "E4 held from JACK MIDI" || fail "no voice from the second sequence"
kill_daemon midiseq2
until_true 10 eval '[[ $(voices) == 0 ]]' && pass "its source killed mid-note: released (0 voices within 1 s)" \
    || fail "note still sounding after its JACK MIDI source left: $(voices) voices"
status_field() { control status --json | python3 -c "import json,sys; v=json.loads(sys.stdin.read().split(chr(10),1)[1]).get('$1'); print(max(v) if isinstance(v, list) else v)"; }
silent_in=$(status_field inputPeakDecibels)
start_daemon tone jack_simple_client
until_true 50 eval 'jack_lsp | grep -q jack_simple_client:output1'
jack_connect jack_simple_client:output1 AudioGraph:in_L && jack_connect jack_simple_client:output1 AudioGraph:in_R
sleep 1
tone_in=$(status_field inputPeakDecibels)
echo "  mic/line bus peak: $silent_in dB unconnected, $tone_in dB with jack_simple_client's sine on in_L/in_R"
(( $(echo "$silent_in < -90 && $tone_in > -30" | bc -l) )) && pass "--input jack: in_L/in_R feed the mic/line bus" \
    || fail "--input jack: input peak $silent_in dB unconnected, $tone_in dB connected"
kill_daemon tone TERM
kill_daemon jackd
until_true 30 has "$T/ag-midi.log" "JACK server gone" || fail "shutdown not noticed"
start_jackd 256 44100
until_true 60 has "$T/ag-midi.log" "playback: JACK client AudioGraph: 44100 Hz" \
    && pass "jackd back at 44.1 kHz: the session prepared again at the new rate" || fail "no session at 44100 Hz"
grep -E "sample rate|back at|44100 Hz" "$T/ag-midi.log" | head -3
until_true 50 ports_up || fail "no AudioGraph ports at 44.1 kHz"
until_true 50 eval 'control status > /dev/null 2>&1'
control note 1 69 100 > /dev/null || fail "note through the control socket"
python3 "$SERVERS/timing.py" jack-record "$T/rate.wav" --port AudioGraph:out_L --seconds 1.5
control note 1 69 0 > /dev/null
python3 "$SERVERS/analyse.py" pitch "$T/rate.wav" --expect-hz 440 --tol-cents 2 && pass "440 Hz at 44.1 kHz" || fail "pitch at 44.1 kHz"
kill -INT $ag; timeout 10 tail --pid=$ag -f /dev/null
wait $ag && pass "stopped, exit 0" || fail "play exit status after the rate change"
kill_daemon jackd TERM

echo "== 4. ALSA's jack plugin: jackd killed under --device jack"
start_jackd 256
python3 "$SERVERS/song.py" "$T/plugin.mid" 300:30000:69
"$AG" play --device jack --period 256 --instrument "$T/test.json" --midi "$T/plugin.mid" > "$T/ag-plugin.log" 2>&1 &
ag=$!
until_true 150 has "$T/ag-plugin.log" "ready in" || fail "audiograph did not start on ALSA's jack plugin"
grep -m1 "playback:" "$T/ag-plugin.log"
sleep 1
killed=$(now)
kill_daemon jackd
until_true 60 has "$T/ag-plugin.log" "playback device lost" \
    && pass "jackd killed under the jack plugin: declared lost after $(printf %.1f "$(at "$killed")") s, no hang" \
    || fail "not declared lost within 6 s of jackd's death"
grep -m1 "playback device lost" "$T/ag-plugin.log"
start_jackd 256
until_true 60 has "$T/ag-plugin.log" "playback device reopened" && pass "reopened once jackd is back" || fail "not reopened"
kill -TERM $ag
timeout 10 tail --pid=$ag -f /dev/null
if kill -0 $ag 2> /dev/null; then fail "still running 10 s after SIGTERM (a hung write?)"; kill -KILL $ag; else pass "SIGTERM ends it"; fi
wait $ag
kill_daemon jackd TERM

echo "== 5. PipeWire's JACK (pw-jack)"
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
sine_across_changes pwjack " in the PipeWire graph"
kill_daemon reference TERM

echo "jack server test: $fails failed"
[[ $fails == 0 ]]
