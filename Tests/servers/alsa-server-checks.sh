# The checks of `play` through one of ALSA's sound-server plugins (sourced by run-pipewire.sh and
# run-pulseaudio.sh, after lib.sh). RECORDER picks how the sink's monitor is recorded: pw-record
# (PipeWire) or parec (PulseAudio, pipewire-pulse).
RECORDER=${RECORDER:-pw-record}
RT_RECORDER=""
chrt -f 80 true 2> /dev/null && RT_RECORDER="chrt -f 80"

# start_recorder NAME FILE: records testsink's monitor into FILE (48 kHz stereo float), as daemon NAME.
# Under SCHED_FIFO when allowed: the recorders write the file from their main thread, which a busy
# machine starves long enough to drop a buffer (a jump in the recording that audiograph did not make).
start_recorder() {
    if [[ $RECORDER == pw-record ]]; then
        start_daemon "$1" $RT_RECORDER pw-record --target testsink -P stream.capture.sink=true --rate 48000 --channels 2 --format f32 "$2"
    else
        start_daemon "$1" $RT_RECORDER parec -d testsink.monitor --latency-msec=20 --rate=48000 --channels=2 --format=float32le \
            --file-format=wav "$2"
    fi
    sleep 0.3  # connected to the sink before the first note
}
# stop_recorder NAME: SIGINT, so the WAV header is written.
stop_recorder() { kill_daemon "$1" INT; }
# The status line `play` prints when it stops, and one figure of it.
exit_line() { grep "stopped:" "$1" | tail -1; }
xruns_in() { exit_line "$1" | sed -E 's/.*xruns ([0-9]+).*/\1/'; }

# held_tone_check DEVICE SECONDS: a held A4 for SECONDS at a 256-frame period, panned hard left,
# recorded whole; aplay plays a reference sine (1061.3 Hz, right channel; a period no whole number of
# samples, so a dropped block always shows) through the same plugin and
# server meanwhile, so a jump the server or the recorder makes is told from one audiograph makes.
# Under load both clients lose a period now and then (a rare event each, ours no more often than
# aplay's over many runs): a take in which ours lost one the reference did not (more xruns, or a
# jump in our tone only) is played once more, saying so, and fails only if the second take does
# too. A client that really drops periods does.
held_tone_check() {
    local take
    for take in 1 2; do
        held_tone_take "$@" && return
        (( take == 1 )) && echo "RETRY: audiograph lost a period the reference did not, once; under load both clients do now and then: playing the held tone once more"
    done
    [[ -n $OURS_VERDICT ]] && fail "$OURS_VERDICT"
    [[ -n $CONTINUITY_VERDICT ]] && fail "$CONTINUITY_VERDICT"
    return 0  # counted in $fails
}

# held_tone_take DEVICE SECONDS: one take of held_tone_check. Returns 1 when audiograph lost periods
# the reference did not (OURS_VERDICT, CONTINUITY_VERDICT say how); other checks pass or fail here.
held_tone_take() {
    local device=$1 seconds=$2 log=$T/ag-held-$1.log wav=$T/held-$1.wav
    OURS_VERDICT="" CONTINUITY_VERDICT=""
    python3 "$SERVERS/song.py" "$T/held.mid" cc:0:10:0 "500:$((seconds * 1000)):69"
    sox -n -r 48000 -c 2 -e float -b 32 "$T/reference.wav" synth $((seconds + 2)) sine 1061.3 vol 0.3 remix 0 1
    start_recorder rec_held "$wav"
    : > "$T/reference.log"
    start_daemon reference aplay -q -D "$device" --period-size=256 --buffer-size=768 "$T/reference.wav"
    timeout $((seconds + 30)) "$AG" play --device "$device" --period 256 --periods 3 --instrument "$T/test.json" \
        --midi "$T/held.mid" > "$log" 2>&1
    local status=$?
    kill_daemon reference TERM
    stop_recorder rec_held
    [[ $status == 0 ]] && pass "played the song, exit 0" || fail "play exit status $status"
    grep -m1 "playback:" "$log"
    local grant; grant=$(grep -m1 -oE "asked [0-9]+×[0-9]+, got [0-9]+×[0-9.]+ from [^;]*" "$log")
    [[ $grant == "asked 256×3, got 256×"* ]] && pass "negotiated period printed: $grant" || fail "grant: '$grant'"
    echo "  $(exit_line "$log")"
    python3 "$SERVERS/analyse.py" continuity "$wav" --hz 440 --reference-hz 1061.3 --min-seconds $((seconds - 1)) \
        > "$T/continuity.log"
    local continuous=$?
    cat "$T/continuity.log"
    python3 "$SERVERS/analyse.py" pitch "$wav" --expect-hz 440 --tol-cents 2 && pass "pitch 440 Hz" || fail "pitch"
    # An xrun of ours at a moment the server starved every client is the machine's: the reference
    # (aplay, same plugin and period) counts those as underruns, and its sine in the recording shows
    # the server's stalls even where aplay counted none. So more xruns than aplay's are ours only
    # if they left a jump in our tone that the reference's tone does not have.
    local ours reference stalls
    ours=$(xruns_in "$log"); reference=$(grep -c "underrun" "$T/reference.log")
    stalls=$(sed -nE 's/^  reference .*, ([0-9]+) discontinuities$/\1/p' "$T/continuity.log")
    echo "  xruns over ${seconds} s: audiograph $ours, the reference client $reference (its tone: ${stalls:-?} jumps)"
    if [[ $ours == 0 ]]; then
        pass "0 xruns over ${seconds} s"
    elif (( ours <= reference )); then
        pass "$ours xruns, no more than the reference client's $reference (a starved machine)"
    elif [[ $continuous == 0 ]] && (( ours <= ${stalls:-0} )); then
        pass "$ours xruns, none heard beyond the $stalls jumps the server made in the reference's tone too"
    elif has "$T/continuity.log" "tone is missing"; then
        echo "INCONCLUSIVE: $ours xruns, and the reference client's tone is missing from the recording (said above)"
    elif (( reference > 10 || ${stalls:-0} > 10 )); then
        # The continuity check's own threshold: past ten stalls of the reference, the machine
        # starved the server and counting is no judgement of ours (continuity says so too).
        echo "INCONCLUSIVE: $ours xruns, but the reference client had $reference underruns and its tone ${stalls:-?} jumps: the machine starved both"
    else
        OURS_VERDICT="$ours xruns, the reference client $reference"
    fi
    [[ $continuous == 0 ]] && pass "no discontinuity in ${seconds} s of A4" || CONTINUITY_VERDICT="discontinuities (above)"
    [[ -z $OURS_VERDICT && -z $CONTINUITY_VERDICT ]]
}

# ports_check SERVER: `audiograph ports` lists the sinks the plugins reach (through libpulse).
ports_check() {
    "$AG" ports > "$T/ports.log" 2>&1
    grep -A4 "^Sinks" "$T/ports.log" | sed 's/^/  /'
    grep -qE "^  testsink  .*, 48000 Hz, 2 ch" "$T/ports.log" && pass "ports lists $1's sink: testsink, 48000 Hz, 2 ch" \
        || fail "ports does not list $1's testsink"
}

# restart_check DEVICE STOP START SOCKET: the server (functions STOP and START; SOCKET: the one the
# device's plugin connects to) killed 2 s into a song and started again 2.5 s later. Song: A4
# 0.5-3.5 s (released during the outage), E5 1-8 s (held across it), C5 9.5-10.5 s (after it).
# RESTARTS=N repeats it (the distribution of the resume times).
restart_check() {
    local i
    for ((i = 1; i <= ${RESTARTS:-1}; i++)); do restart_once "$@"; done
}
restart_once() {
    local device=$1 stop=$2 start=$3 socket=$4 log=$T/ag-restart-$1.log wav=$T/restart-$1.wav
    python3 "$SERVERS/song.py" "$T/restart.mid" 500:3000:69 1000:7000:76 9500:1000:72
    "$AG" play --device "$device" --period 256 --periods 3 --instrument "$T/test.json" --midi "$T/restart.mid" \
        > "$log" 2>&1 &
    local ag=$!
    until_true 150 has "$log" "ready in" || { fail "audiograph did not start"; cat "$log"; return; }
    local t0 ticks0; t0=$(now); ticks0=$(cpu_ticks $ag)
    sleep 1.8
    local t1 ticks1; t1=$(now); ticks1=$(cpu_ticks $ag)
    $stop
    until_true 30 has "$log" "playback device lost" && pass "the server's death is a lost device" \
        || fail "loss not noticed within 3 s"
    grep -m1 "playback device lost" "$log"
    sleep 0.3
    local t2 ticks2; t2=$(now); ticks2=$(cpu_ticks $ag)
    sleep 2
    local t3 ticks3; t3=$(now); ticks3=$(cpu_ticks $ag)
    local playing outage
    playing=$(echo "($ticks1 - $ticks0) / $TICKS / ($t1 - $t0) * 100" | bc -l)
    outage=$(echo "($ticks3 - $ticks2) / $TICKS / ($t3 - $t2) * 100" | bc -l)
    printf "  CPU of audiograph: %.1f %% of a core while playing, %.1f %% while the server is away\n" "$playing" "$outage"
    # Away, the control thread renders the song into nowhere (as the audio thread did when playing)
    # and asks the server's socket every 100 ms; the plugin is opened only when it answers. So the
    # outage costs what playing costs: at most half as much again plus 2 points of noise (a
    # clock tick is 1 % of a core over these 2 s). A busy loop would be a whole core; opening the
    # pulse plugin twice a second cost 13 %.
    (( $(echo "$outage <= $playing * 1.5 + 2" | bc -l) )) && pass "CPU while the server is away no more than while playing" \
        || fail "CPU while the server is away: $outage %, playing: $playing %"
    # The recorder waits for the server's socket to answer (the moment it accepts clients again) and
    # times audiograph's first sound at the sink from there.
    python3 "$SERVERS/timing.py" resume "$socket" "$wav" --seconds 7 > "$T/resume.log" 2>&1 &
    local timer=$!
    $start
    # While the song still plays (the recording outlasts it): `status` names the reopened grant.
    local reopened=0 playback=""
    if until_true 60 has "$log" "playback device reopened"; then
        reopened=1
        playback=$(control status --json | grep '"playback"')
        [[ $playback == *"asked 256×3, got 256×"* ]] && pass "status after the reopen: what was asked and granted" \
            || fail "status after the reopen: $playback"
    fi
    wait $timer
    local resumed=$?
    cat "$T/resume.log"
    if [[ $resumed == 3 ]]; then
        # timing.py's own recorder was not served either: the server was not back (said above).
        (( reopened )) || echo "INCONCLUSIVE: no reopen within 6 s of the server's start, while the server served no recorder"
    else
        (( reopened )) || fail "no reopen in the log within 6 s of the server's start"
        [[ $resumed == 0 ]] && ! has "$T/resume.log" INCONCLUSIVE && pass "playback resumed within 2 s of the server's return"
        [[ $resumed == 0 ]] || fail "resume (above)"
    fi
    timeout 20 tail --pid=$ag -f /dev/null
    wait $ag && pass "song finished, exit 0" || fail "play exit status"
    echo "  $(exit_line "$log")"
    # E5 ends at 8 s and C5 starts at 9.5 s of the song: 1.5 s apart, less the preset's ~0.2 s release.
    if [[ $resumed == 3 ]]; then
        echo "INCONCLUSIVE: the notes after the restart (nothing was recorded: the server was not back)"
        return
    fi
    python3 "$SERVERS/analyse.py" segments "$wav" --expect 659.26,523.25 --absent 440 --gaps 1.3 \
        && pass "after the restart: E5 (held across) released, C5 played, A4 (released meanwhile) silent" \
        || fail "notes after the restart"
}
