// swift-tools-version: 6.1
// AudioGraph: a MIDI-driven sampler and synth instrument for Linux.
//
// Layers, bottom to top (arrows point down only; see Sources/DSP/README.md for the unit contract):
//   C libraries  CALSA CJACK CSndFile CLibXML2 CFFTW CSoxr   (system-library shims; CPulseSinks: libpulse by dlopen;
//                CFileWriteback: sync_file_range; CPUCheck: is an x86-64 processor new enough, before `main`)
//   compile time MemberwiseInit                                 (`@PublicInit`, a macro any target may use; nothing linked)
//   system       FileAccess                                     (regular files only, size-checked reads)
//   pure values  MIDI → FileAccess                              (messages, SMF files, note names)
//   kernels      DSP; Spectral → DSP                            (render-thread safe units; Spectral = FFTW)
//   files        AudioFiles, Presets → FileAccess               (libsndfile + resampling; .aupreset)
//                SoundFont → AudioFiles, FileAccess             (SF2/SF3: parsing, zone model, combination rules)
//   instruments  Instruments, Sampler → DSP, MIDI               (synth, loop players; the render-only sampler)
//                MicEffects → DSP, Spectral                     (mic chain)
//   loading      SamplerLevels → Sampler, Spectral              (band-limited levels, FFT-filtered, by need)
//                SamplerLoading → SamplerLevels, Presets, AudioFiles  (.aupreset + samples → SamplerProgram)
//                SoundFontLoading → SoundFont, SamplerLevels, Sampler  (SF2/SF3 presets → SamplerPrograms, program table)
//   graph        Engine → Instruments, Sampler, MicEffects      (buses, master stage, parameters, render)
//   devices      ALSAIO → MIDI                                  (PCM, sequencer; knows nothing of Engine)
//                JACKIO → CJACK                                 (a native JACK client; knows nothing of Engine)
//   live loop    LiveLoop → Engine, ALSAIO, JACKIO              (one render path per period; the ALSA push and JACK drivers)
//   live control LiveControl → LiveLoop                         (ControlService + StatusSnapshot: every front end's way in)
//   measuring    Benchmarks → Sampler, SamplerLevels, MicEffects  (render cost of sampler, send and mic effects)
//                SoundFontFidelity → SoundFont, AudioFiles, Spectral  (SoundFont notes and songs against FluidSynth's)
//   panel        PanelProtocol (pure: messages, limits, page); PanelServer → PanelProtocol, Hummingbird, NIO (`audiograph` only)
//   app          AudioGraphApp + `audiograph`                   (composition root, CLI, session, control socket, offline)
// The real-time targets (DSP, Spectral, Instruments, Sampler, MicEffects, Engine, and the live path's
// ALSAIO, JACKIO and LiveLoop) are checked by the compiler (`realTimeChecked`); the first six link no file
// format: libxml2 and libsndfile come in only through SamplerLoading and the app. Sampler renders
// only: the levels it plays are built on the loading side and handed over through its seam
// (`SamplerProgram.levelRequests` / `publishLevels`, Sources/SamplerLevels/README.md).
import CompilerPluginSupport
import PackageDescription

// Render-path code carries `@_noAllocation` (Sources/DSP/README.md), which the compiler checks
// in release builds, whole-module and optimised, the builds real-time claims are made on. Unoptimised
// per-file debug builds would report calls the optimiser removes, so they skip the check.
let realTimeChecked: [SwiftSetting] = [
    .unsafeFlags(["-Xllvm", "-sil-disable-pass=performance-diagnostics"], .when(configuration: .debug)),
]

let package = Package(
    name: "AudioGraph",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "audiograph", targets: ["audiograph"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // For the one macro, `@PublicInit` (MemberwiseInit): compile time only, nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        // The web panel's HTTP/WebSocket server: linked by `audiograph` alone, through PanelServer.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Under Hummingbird already; named for the refused-upgrade answer PanelServer writes itself.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        // C at the edge: one system-library target per C library.
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),  // tests only
        .systemLibrary(name: "CJACK", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        // libpulse loaded at run time (dlopen) to list the PulseAudio/pipewire-pulse sinks: no link, no build dependency.
        .systemLibrary(name: "CPulseSinks"),
        .systemLibrary(name: "CFileWriteback"),

        // `@PublicInit`: the public memberwise init Swift synthesises only as internal (compile time).
        .macro(
            name: "MemberwiseInitMacro",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]),
        // scripts/fuzz links libFuzzer's `main` into every executable, which the plugin (it has its own) cannot
        // take: it builds without it and hands the compiler the ordinary release build's (AUDIOGRAPH_MACRO_PLUGIN).
        .target(name: "MemberwiseInit", dependencies: Context.environment["AUDIOGRAPH_MACRO_PLUGIN"] == nil ? ["MemberwiseInitMacro"] : []),
        // Opens outside files safely (regular files only, O_NONBLOCK, size checked first); below every reader.
        .target(name: "FileAccess", dependencies: ["MemberwiseInit", "CFileWriteback"]),
        .target(name: "MIDI", dependencies: ["MemberwiseInit", "FileAccess"], swiftSettings: realTimeChecked),
        .target(name: "DSP", dependencies: ["MemberwiseInit"], exclude: ["README.md"], swiftSettings: realTimeChecked),
        .target(name: "Spectral", dependencies: ["CFFTW", "DSP"], swiftSettings: realTimeChecked),
        .target(name: "AudioFiles", dependencies: ["MemberwiseInit", "CSndFile", "CSoxr", "FileAccess"]),
        .target(name: "Presets", dependencies: ["MemberwiseInit", "CLibXML2", "FileAccess"]),
        // SoundFont 2.04 / SF3 files: RIFF parsing, validation, the zone model, combination rules,
        // sample data mapped and read on need (Vorbis decoded through AudioFiles' libsndfile).
        .target(name: "SoundFont", dependencies: ["MemberwiseInit", "AudioFiles", "FileAccess"], exclude: ["README.md"]),
        .target(name: "Instruments", dependencies: ["DSP", "MIDI"], swiftSettings: realTimeChecked),
        .target(name: "Sampler", dependencies: ["MemberwiseInit", "DSP", "MIDI"], swiftSettings: realTimeChecked),
        // Builds the sampler's band-limited levels (control and builder threads, FFTW).
        .target(name: "SamplerLevels", dependencies: ["Sampler", "Spectral", "DSP", "MIDI"], exclude: ["README.md"]),
        // Builds a SamplerProgram from an .aupreset and its sample files (control thread, file I/O).
        .target(name: "SamplerLoading", dependencies: ["Sampler", "SamplerLevels", "DSP", "Presets", "AudioFiles"]),
        // A SoundFont's presets as SamplerPrograms and a FluidSynth-style program table (control thread).
        .target(name: "SoundFontLoading", dependencies: ["SoundFont", "SamplerLevels", "Sampler", "MIDI", "DSP"]),
        .target(name: "MicEffects", dependencies: ["DSP", "Spectral"], swiftSettings: realTimeChecked),
        .target(
            name: "Engine",
            dependencies: ["MemberwiseInit", "DSP", "MIDI", "Spectral", "Instruments", "Sampler", "MicEffects"], swiftSettings: realTimeChecked),
        // What the real-time units cost (control thread; `audiograph bench`, sampler-bench, callgrind).
        .target(name: "Benchmarks", dependencies: ["DSP", "MIDI", "Sampler", "SamplerLevels", "MicEffects", "Spectral"]),
        // The render thread's device calls are checked too: only the C leaves are opted out (RenderThreadCalls.swift).
        .target(name: "ALSAIO", dependencies: ["MemberwiseInit", "CALSA", "MIDI"], swiftSettings: realTimeChecked),
        // A native JACK client: ports, a process callback handing each cycle to a renderer, the
        // server's notifications (knows nothing of Engine; the callback is checked like the engine).
        .target(name: "JACKIO", dependencies: ["MemberwiseInit", "CJACK"], swiftSettings: realTimeChecked),
        // The live render path (one per period, for a push or a callback driver) and the ALSA push loop.
        .target(name: "LiveLoop", dependencies: ["MemberwiseInit", "ALSAIO", "JACKIO", "Engine", "DSP", "MIDI"], exclude: ["README.md"], swiftSettings: realTimeChecked),
        // What every front end of a running instrument uses: parameters, notes, the status snapshot.
        .target(name: "LiveControl", dependencies: ["MemberwiseInit", "LiveLoop", "ALSAIO", "Engine", "Sampler", "MIDI", "DSP"]),
        // Renders notes and songs through FluidSynth and AudioGraph with one font and compares them
        // (the soundfont-fidelity tool, the fidelity tests).
        .target(name: "SoundFontFidelity", dependencies: ["MemberwiseInit", "SoundFont", "MIDI", "AudioFiles", "Spectral"]),
        .target(
            name: "AudioGraphApp",
            dependencies: [
                "MemberwiseInit", "LiveLoop", "LiveControl", "PanelProtocol", "Engine", "ALSAIO", "JACKIO", "AudioFiles", "Presets", "SamplerLevels", "SamplerLoading", "Spectral", "FileAccess", "Benchmarks",
                "SoundFont", "SoundFontLoading", "DSP", "Instruments", "MIDI", "MicEffects", "Sampler", "CPulseSinks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The web panel: its messages, validation, limits and page (no networking, unit-tested), and
        // the Hummingbird server around them, which only the `audiograph` executable links.
        .target(name: "PanelProtocol", dependencies: ["MemberwiseInit"]),
        .target(
            name: "PanelServer",
            dependencies: [
                "PanelProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // Says in one line that an x86-64 processor is too old for this build, before `main` (see the end).
        .target(name: "CPUCheck"),
        .executableTarget(name: "audiograph", dependencies: ["AudioGraphApp", "PanelServer", "CPUCheck"]),
        // Regenerates the bundled Sounds/ and the demo song (outputs are committed).
        .executableTarget(name: "make-sounds", dependencies: ["AudioFiles", "MIDI", "DSP"]),
        // Compares a font's notes and songs with FluidSynth's renders (docs/SOUNDFONTS.md).
        .executableTarget(name: "soundfont-fidelity", dependencies: ["SoundFontFidelity", "SoundFont", "MIDI"]),
        // Times the sampler render loop; `--render-only` runs it under valgrind --tool=callgrind.
        .executableTarget(name: "sampler-bench", dependencies: ["Benchmarks", "Sampler", "DSP", "MIDI"]),
        // Drives ALSAIO against real ALSA inside the alsa-vm rig (Tests/alsa-vm/alsaio-smoke.sh).
        .executableTarget(name: "alsaio-probe", dependencies: ["ALSAIO", "CALSA", "MIDI"]),

        // Fuzz entry points for every outside format (scripts/fuzz builds it with -sanitize=fuzzer,address
        // -DFUZZING; the ordinary build is a replay tool: `audiograph-fuzz TARGET FILE…`).
        .executableTarget(
            name: "audiograph-fuzz",
            dependencies: [
                "AudioGraphApp", "Presets", "Sampler", "SamplerLoading", "MIDI", "ALSAIO", "AudioFiles", "Engine", "DSP", "SoundFont",
            ]),

        // Shared measuring tools for the tests: pitch in cents, spectra, steps, levels.
        .target(name: "AudioTestSupport", dependencies: ["MemberwiseInit", "DSP"], path: "Tests/AudioTestSupport"),
        // The live loop driven by hand (ALSA's null PCM, injected device loss) for the tests and scripts/tsan-live.
        .target(
            name: "LiveTestSupport", dependencies: ["LiveLoop", "LiveControl", "AudioGraphApp", "ALSAIO", "Engine", "MIDI"],
            path: "Tests/LiveTestSupport"),
        .testTarget(name: "MIDITests", dependencies: ["MIDI", "AudioTestSupport"]),
        .testTarget(name: "DSPTests", dependencies: ["DSP", "AudioTestSupport"]),
        // libsamplerate only as the reference the resampler quality test measures libsoxr against.
        .testTarget(name: "AudioFilesTests", dependencies: ["AudioFiles", "CSndFile", "AudioTestSupport", "CSampleRate"]),
        .testTarget(name: "PresetsTests", dependencies: ["Presets", "AudioTestSupport"]),
        .testTarget(name: "SoundFontTests", dependencies: ["SoundFont", "SoundFontLoading", "Sampler", "SamplerLevels", "MIDI", "DSP"]),
        // Presets of TimGM6mb and FluidR3Mono_GM against FluidSynth (runs the built `audiograph`).
        .testTarget(name: "SoundFontFidelityTests", dependencies: ["SoundFontFidelity", "SoundFont"]),
        .testTarget(name: "InstrumentsTests", dependencies: ["Instruments", "DSP", "MIDI", "AudioTestSupport"]),
        .testTarget(
            name: "SamplerTests",
            dependencies: [
                "Sampler", "SamplerLevels", "SamplerLoading", "AudioFiles", "Presets", "DSP", "MIDI", "AudioTestSupport",
            ]),
        .testTarget(name: "SpectralTests", dependencies: ["Spectral", "AudioTestSupport"]),
        .testTarget(name: "MicEffectsTests", dependencies: ["MicEffects", "Spectral", "DSP", "Benchmarks", "AudioTestSupport"]),
        .testTarget(
            name: "EngineTests", dependencies: ["Engine", "Sampler", "SamplerLevels", "Instruments", "MicEffects", "DSP", "MIDI", "AudioTestSupport"]),
        .testTarget(name: "ALSAIOTests", dependencies: ["ALSAIO", "MIDI"]),
        .testTarget(name: "PanelProtocolTests", dependencies: ["PanelProtocol", "AudioTestSupport"]),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "AudioGraphApp", "Engine", "Sampler", "SamplerLevels", "MicEffects", "AudioFiles", "CSndFile", "DSP", "MIDI", "LiveLoop", "LiveControl",
                "LiveTestSupport", "AudioTestSupport", "FileAccess",
            ]),
        // Counts mallocs across rendered blocks; its counters are process-wide, so the suite is serialized.
        .testTarget(
            name: "RealTimeSafetyTests",
            dependencies: [
                "Engine", "Sampler", "SamplerLevels", "Instruments", "MicEffects", "DSP", "MIDI", "AudioGraphApp", "LiveTestSupport",
                "PanelProtocol",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]),
    ]
)

// x86-64: our Swift code is compiled for x86-64-v2 (`nehalem`: SSE4.2, SSSE3, POPCNT), which every
// Intel processor since 2008 and AMD one since 2011 runs: the voices' and levels' loops get SSE4.1's
// integer widening, rounding and blends, 7–11 % off a SoundFont render (docs/PERFORMANCE.md). Older
// processors are told so by `audiograph` (CPUCheck); AUDIOGRAPH_X86_BASELINE=1 builds for them.
#if arch(x86_64)
if Context.environment["AUDIOGRAPH_X86_BASELINE"] == nil {
    for target in package.targets where target.type != .macro && target.type != .system {
        if target.name == "CPUCheck" {
            target.cSettings = [.define("AUDIOGRAPH_X86_64_V2")]
        } else {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-target-cpu", "nehalem"])]
        }
    }
}
#endif
