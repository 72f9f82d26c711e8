import ALSAIO

#if canImport(Glibc)
import Glibc
#endif

/// `play`: a sine through `PCMDevice` (reports negotiated configuration, xruns, statuses).
/// `record`: capture through `PCMDevice` into a 16-bit WAV for the host to analyse.
enum PCMProbe {
    static let amplitude: Float = 0.5

    static func run(_ command: String, _ arguments: [String]) throws -> Int32 {
        let isPlay = command == "play"
        guard arguments.count >= 3, let seconds = Double(arguments[isPlay ? 2 : 1]) else {
            return ProbeCommand.usage()
        }
        let tail = Array(arguments.dropFirst(3))
        let request = PCMRequest(
            deviceName: arguments[0], direction: isPlay ? .playback : .capture,
            periodFrames: tail.count > 0 ? Int(tail[0]) ?? 1024 : 1024, periodCount: tail.count > 1 ? Int(tail[1]) ?? 3 : 3)
        let device = try PCMDevice(request)
        say("opened \(device.configuration)")
        let config = device.configuration
        let totalFrames = Int(seconds * Double(config.sampleRateHz))
        let block = config.periodFrames
        let left = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer {
            left.deallocate()
            right.deallocate()
        }
        var recovered = 0
        var done = 0
        // Says what a transfer met; false when the device is gone.
        func outcome(_ status: PCMTransferStatus) -> Bool {
            switch status {
            case .complete: return true
            case .recovered:
                recovered += 1
                say("recovered an xrun at frame \(done) (\(done * 1000 / config.sampleRateHz) ms)")
                return true
            case .deviceLost(let code):
                say("device lost (\(code)) after \(done) frames")
                return false
            }
        }
        let started = MonotonicClock.nanoseconds()
        if isPlay {
            let hz = Double(arguments[1]) ?? 440
            let step = 2 * Double.pi * hz / Double(config.sampleRateHz)
            while done < totalFrames {
                let frames = min(block, totalFrames - done)
                for frame in 0..<frames {
                    let value = amplitude * Float(sin(step * Double(done + frame)))
                    left[frame] = value
                    right[frame] = value
                }
                guard outcome(device.write(left: left, right: right, frames: frames)) else { return 1 }
                done += frames
                if done >= config.bufferFrames && done - frames < config.bufferFrames { say("playing") }
            }
            device.drain()
        } else {
            // The capture is kept in memory and written at the end: file writes (9p in the rig)
            // inside the read loop would stall it into overruns that are not PCMDevice's.
            let writer = try WAVWriter(path: arguments[2], sampleRateHz: config.sampleRateHz, capacityFrames: totalFrames)
            say("recording")
            while done < totalFrames {
                let frames = min(block, totalFrames - done)
                guard outcome(device.read(left: left, right: right, frames: frames)) else { return 1 }
                writer.append(left: left, right: right, frames: frames)
                done += frames
            }
            writer.finish()
        }
        let elapsed = Double(MonotonicClock.nanoseconds() - started) / 1e9
        say("\(command) \(done) frames in \(Int(elapsed * 1000)) ms; xruns \(device.xrunCount); recovered calls \(recovered)")
        return 0
    }
}

/// A 16-bit stereo WAV collected in memory and written with plain stdio by `finish()`
/// (the probe has no libsndfile).
final class WAVWriter {
    private let file: UnsafeMutablePointer<FILE>
    private let sampleRateHz: Int
    private var samples: [Int16]
    private var frames = 0

    init(path: String, sampleRateHz: Int, capacityFrames: Int) throws {
        guard let file = fopen(path, "wb") else { throw ProbeError(description: "cannot create \(path)") }
        self.file = file
        self.sampleRateHz = sampleRateHz
        samples = []
        samples.reserveCapacity(capacityFrames * 2)
    }

    func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames count: Int) {
        for frame in 0..<count {
            samples.append(Int16(max(-1, min(1, left[frame])) * 32767))
            samples.append(Int16(max(-1, min(1, right[frame])) * 32767))
        }
        frames += count
    }

    func finish() {
        writeHeader()
        samples.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    private func writeHeader() {
        let dataBytes = UInt32(frames * 4)
        var header: [UInt8] = Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVEfmt ".utf8) + le32(16)
        header += le16(1) + le16(2) + le32(UInt32(sampleRateHz)) + le32(UInt32(sampleRateHz * 4)) + le16(4) + le16(16)
        header += Array("data".utf8) + le32(dataBytes)
        header.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
    }

    private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private func le16(_ value: UInt16) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}

struct ProbeError: Error, CustomStringConvertible {
    var description: String
}
