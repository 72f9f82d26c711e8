// alsaio-probe: drives ALSAIO against real ALSA (the alsa-vm rig's kernel, or a real machine).
//   alsaio-probe ports                          list sequencer ports (like aconnect -l)
//   alsaio-probe pcm-list                       list PCM device names
//   alsaio-probe listen SECONDS [--until-file F] [--connect SPEC] [--no-autoconnect]
//                                               run the AudioGraph:MIDI In client, print what arrives
//   alsaio-probe source NAME                    a client with one readable MIDI port that holds a chord
//                                               once subscribed (stands in for an rtpmidid session)
//   alsaio-probe send NOTE [SECONDS] [--to SPEC]   play one note through SequencerSender
//   alsaio-probe play DEVICE HZ SECONDS [PERIOD_FRAMES PERIODS]   sine through PCMDevice
//   alsaio-probe record DEVICE SECONDS FILE.wav [PERIOD_FRAMES PERIODS]  capture through PCMDevice
//   alsaio-probe paced SECONDS PERIOD [PRIORITY]   PacedNullDevice loop, prints wake-up lateness
//   alsaio-probe tracker ROUNDS                 SourceNoteTracker workload (for a malloc counter)
//   alsaio-probe rt                             try a SCHED_FIFO thread, print the status
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
exit(ProbeCommand.run(arguments))
