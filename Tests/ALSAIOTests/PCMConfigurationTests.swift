import ALSAIO
import Testing

@Suite struct PCMConfigurationTests {
    @Test func describesWhatWasNegotiatedWithDurations() {
        let configuration = PCMConfiguration(
            deviceName: "hw:Loopback,0,0", direction: .playback, sampleRateHz: 48_000, channels: 2, format: .signed16LE,
            periodFrames: 1024, bufferFrames: 3072)
        #expect(
            configuration.description
                == "hw:Loopback,0,0 playback: 48000 Hz, 2 ch, S16_LE, period 1024 frames (21.33 ms), buffer 3072 frames (64.00 ms)")
        #expect(abs(configuration.bufferMilliseconds - 64) < 1e-9)
    }

    @Test func smallPeriodsKeepTwoDecimals() {
        let configuration = PCMConfiguration(
            deviceName: "default", direction: .capture, sampleRateHz: 44_100, channels: 1, format: .float32LE,
            periodFrames: 64, bufferFrames: 128)
        #expect(configuration.description.hasSuffix("period 64 frames (1.45 ms), buffer 128 frames (2.90 ms)"))
        #expect(configuration.description.hasPrefix("default capture: 44100 Hz, 1 ch, FLOAT_LE"))
    }

    @Test func formatsArePreferredFloatFirst() {
        #expect(PCMRequest(deviceName: "default", direction: .playback).formatPreference == [.float32LE, .signed32LE, .signed16LE])
    }

    @Test func portInfoReadsLikeAconnect() {
        let port = SequencerPortInfo(
            client: 130, clientName: "rtpmidid", port: 1, portName: "iPad",
            capabilities: SequencerPortCapability.read | SequencerPortCapability.subscribeRead | SequencerPortCapability.noExport,
            types: SequencerPortType.midiGeneric)
        #expect(port.description == "130:1 'rtpmidid':'iPad' [read,subs-read,no-export] [midi-generic]")
        #expect(port.isReadableSource && !port.isExported && !port.isWritableDestination && port.isMIDI)
    }
}
