import DSP
import Engine
import MIDI
import Sampler
import XCTest

/// SoundFont voices allocate nothing either: sixteen parts of SoundFont zones using every part
/// of the model (envelopes with delay and hold, both LFOs on pitch, filter and volume, a resonant
/// filter, a font modulator from CC74, exclusive classes, sample mode 3, per-zone sends),
/// with notes, controllers, bends, pressure and program changes every block.
final class SoundFontAllocationTests: XCTestCase {
    let rate = 48000.0
    let blockFrames = 64

    func sine(_ frequency: Double, frames: Int) -> [Float] {
        (0..<frames).map { Float(0.3 * sin(2 * Double.pi * frequency * Double($0) / rate)) }
    }

    /// Float frames in memory, read as a deferred waveform's source.
    struct MemorySource: SampleSource {
        let frames: [Float]
        func read(channel: Int, frames range: Range<Int>, into destination: UnsafeMutableRawPointer) throws(SampleReadError) {
            frames[range].withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
    }

    /// `deferred`: its waveform holds no frames (`SamplerWaveform(source:)`), its region unprepared.
    func program(_ frequency: Double, exclusiveClass: Double, deferred: Bool = false) throws -> SamplerProgram {
        let frames = sine(frequency, frames: 40_000)
        let waveform = deferred
            ? try SamplerWaveform(source: MemorySource(frames: frames), channelCount: 1, frameCount: frames.count, sampleRate: rate, bytesPerFrame: 4)
            : try SamplerWaveform(channels: [frames], sampleRate: rate)
        var generators = SF2Generators()
        let values: [Int: Double] = [
            SF2Generator.volEnvDelay: -7000, SF2Generator.volEnvAttack: -4000, SF2Generator.volEnvHold: -5000,
            SF2Generator.volEnvDecay: 1000, SF2Generator.volEnvSustain: 200, SF2Generator.volEnvRelease: -1000,
            SF2Generator.modEnvAttack: -3000, SF2Generator.modEnvDecay: 0, SF2Generator.modEnvSustain: 500,
            SF2Generator.modEnvToPitch: 50, SF2Generator.modEnvToFilterCutoff: 2400, SF2Generator.modLFOToPitch: 20,
            SF2Generator.modLFOToFilterCutoff: 600, SF2Generator.modLFOToVolume: 30, SF2Generator.vibLFOToPitch: 15,
            SF2Generator.initialFilterCutoff: 9000, SF2Generator.initialFilterQ: 120, SF2Generator.reverbSend: 300,
            SF2Generator.chorusSend: 200, SF2Generator.exclusiveClass: exclusiveClass, SF2Generator.pan: -200,
        ]
        for (g, v) in values { generators[g] = v }
        var modulators = SF2Modulator.fluidSynthDefaults
        modulators.append(SF2Modulator(source: 0x00CA, destination: UInt16(SF2Generator.initialFilterCutoff), amount: -2400))
        modulators.append(SF2Modulator(source: 0x0D, destination: UInt16(SF2Generator.modLFOToVolume), amount: 50, amountSource: 0x0081))
        var zone = SamplerZone(waveform: waveform, rootKey: 69)
        zone.loop = SamplerLoop(startFrame: 1_000, endFrame: 39_000)
        zone.soundFont = SF2ZoneArticulation(generators: generators, modulators: modulators, originalPitch: 69, loopsUntilRelease: true)
        var layer = SamplerLayer()
        layer.lfo = nil
        return try SamplerProgram(layers: [layer], zones: [zone], globals: SamplerGlobals(voiceCount: 16))
    }

    func testSoundFontPartsRenderWithoutAllocating() throws {
        let (total, voices) = try exercise([try program(480, exclusiveClass: 0), try program(360, exclusiveClass: 1), try program(600, exclusiveClass: 0)])
        XCTAssertEqual(total, 0, "the render path allocated \(total) times in 10000 blocks")
        XCTAssertGreaterThanOrEqual(voices, 60)
    }

    /// Deferred waveforms (a SoundFont's samples read on need): notes on a region whose frames
    /// were published, and on an unprepared one (silent, counted), allocate nothing either.
    func testNotesOnDeferredRegionsRenderWithoutAllocating() throws {
        let prepared = try program(480, exclusiveClass: 0, deferred: true), unprepared = try program(360, exclusiveClass: 1, deferred: true)
        for request in prepared.levelRequests where request.kind == .plain {
            XCTAssertTrue(prepared.publishFrames(try RegionFrames(reading: request), for: request))
        }
        let (total, voices) = try exercise([prepared, unprepared, try program(600, exclusiveClass: 0)])
        XCTAssertEqual(total, 0, "the render path allocated \(total) times in 10000 blocks")
        XCTAssertGreaterThanOrEqual(voices, 30)
        XCTAssertGreaterThan(unprepared.silentNotes, 1_000)
        XCTAssertEqual(prepared.silentNotes, 0)
    }

    /// Sixteen parts on `programs` (by program number modulo 3; the drum part on the second) with
    /// notes, controllers, bends, pressure and program changes every block: the allocations
    /// counted over 10000 blocks after 2000 to warm up, and the sampler voices sounding at the end.
    func exercise(_ programs: [SamplerProgram]) throws -> (allocations: Int, voices: Int) {
        let row: [PartProgram?] = (0..<128).map { .sampler($0 % 3) }
        let bank = ProgramBank(programs: programs, names: ["a", "b", "c"], table: [0: row, 128: [.sampler(1)]],
                               parts: (0..<16).map { PartSetup(program: $0 % 3, isDrum: $0 == 9) })
        let engine = try AudioEngine(
            configuration: EngineConfiguration(sampleRate: rate, maxFrames: blockFrames, maxSamplerVoices: 128), content: EngineContent(programBank: bank))
        let output = StereoBuffer(capacity: blockFrames)
        let block = EventBlock(capacity: 16)
        func renderBlock(_ n: Int) {
            let (channel, note) = block.startRotation(n, parts: 16, velocity: UInt8(30 + n % 90))
            block.add(2, .noteOn(channel: channel, note: note &+ 1, velocity: 90))
            block.add(5, .programChange(channel: channel, program: UInt8(n / 16 % 128)))
            block.add(20, .pitchBend(channel: channel, value: Int16(n % 8192 - 4096)))
            block.add(25, .channelPressure(channel: channel, pressure: UInt8(n % 128)))
            block.add(26, .polyPressure(channel: channel, note: note, pressure: UInt8(n % 100)))
            block.add(30, .controlChange(channel: channel, controller: 74, value: UInt8(n % 128)))
            block.add(40, .controlChange(channel: channel, controller: 1, value: UInt8(n % 128)))
            block.add(45, .controlChange(channel: channel, controller: 91, value: UInt8(n % 128)))
            block.add(60, .controlChange(channel: channel, controller: 64, value: n % 64 < 32 ? 127 : 0))
            block.add(62, .noteOff(channel: channel, note: note &+ 1, velocity: 0))
            engine.render(output: output.block(frames: blockFrames), events: block.events)
        }
        for n in 0..<2_000 { renderBlock(n) }  // warm up: every part sounding
        let total = AllocationCounter.count {
            for n in 0..<10_000 { renderBlock(n) }
        }
        return (total, engine.activeVoiceCounts.sampler)
    }
}
