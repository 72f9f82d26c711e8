import CJACK
import Synchronization

/// What the process callback needs, in memory of its own at a fixed address (its `arg`): the
/// ports, storage for the cycle's MIDI events, the renderer, and the notifications object for the
/// dropped-MIDI count (unretained; the client keeps it alive). Written by the control thread only
/// while the client is inactive.
struct JACKProcessState {
    var outLeft: OpaquePointer
    var outRight: OpaquePointer
    var inLeft: OpaquePointer?
    var inRight: OpaquePointer?
    var midiIn: OpaquePointer?
    var events: UnsafeMutablePointer<JACKMIDIEvent>
    var eventCapacity: Int
    /// nil until `activate`.
    var renderer: JACKRenderer?
    var notifications: Unmanaged<JACKNotifications>
}

/// The process callback: JACK's real-time thread, once per cycle. No allocation, lock, retain or
/// existential (`@_noAllocation`, checked in release builds; the C leaves are in RenderThreadCalls).
enum JACKProcess {
    /// Events kept per cycle; a keyboard sends a few, a flood beyond this is counted and dropped.
    static let eventCapacity = 512

    static let callback: JackProcessCallback = { frames, argument in
        if let argument { run(frames: frames, state: argument.assumingMemoryBound(to: JACKProcessState.self)) }
        return 0
    }

    @_noAllocation
    static func run(frames: jack_nframes_t, state: UnsafeMutablePointer<JACKProcessState>) {
        let s = state.pointee
        guard let renderer = s.renderer, let outLeft = RenderThreadCalls.buffer(s.outLeft, frames),
              let outRight = RenderThreadCalls.buffer(s.outRight, frames)
        else { return }
        var inLeft: UnsafeMutablePointer<Float>?
        var inRight: UnsafeMutablePointer<Float>?
        if let left = s.inLeft, let right = s.inRight {
            inLeft = RenderThreadCalls.buffer(left, frames)?.assumingMemoryBound(to: Float.self)
            inRight = RenderThreadCalls.buffer(right, frames)?.assumingMemoryBound(to: Float.self)
        }
        var midiCount = 0
        if let port = s.midiIn, let buffer = RenderThreadCalls.buffer(port, frames) {
            midiCount = readMIDI(buffer, into: s.events, capacity: s.eventCapacity, notifications: s.notifications)
        }
        var cycle = JACKCycle(
            frames: Int(frames), outLeft: outLeft.assumingMemoryBound(to: Float.self),
            outRight: outRight.assumingMemoryBound(to: Float.self), inLeft: inLeft, inRight: inRight,
            midi: UnsafePointer(s.events), midiCount: midiCount)
        withUnsafeMutablePointer(to: &cycle) { RenderThreadCalls.render(renderer, UnsafeRawPointer($0)) }
    }

    /// Copies the cycle's channel messages (1–3 bytes, status byte first) into `events`; SysEx,
    /// system messages and what does not fit are counted as dropped.
    @_noAllocation
    static func readMIDI(
        _ buffer: UnsafeMutableRawPointer, into events: UnsafeMutablePointer<JACKMIDIEvent>, capacity: Int,
        notifications: Unmanaged<JACKNotifications>
    ) -> Int {
        let count = RenderThreadCalls.midiEventCount(buffer)
        var kept = 0
        var dropped = 0
        var event = jack_midi_event_t()
        var index: UInt32 = 0
        while index < count {
            defer { index += 1 }
            guard RenderThreadCalls.midiEvent(&event, buffer, index) == 0, let bytes = event.buffer, event.size >= 1 else {
                continue
            }
            let status = bytes[0]
            let length = channelMessageLength(status)
            guard length > 0, event.size >= length, kept < capacity else {
                dropped += 1
                continue
            }
            events[kept] = JACKMIDIEvent(
                frame: event.time, status: status, data1: length > 1 ? bytes[1] : 0, data2: length > 2 ? bytes[2] : 0,
                length: UInt8(length))
            kept += 1
        }
        if dropped > 0 { _ = notifications._withUnsafeGuaranteedRef { $0.midiDropped.wrappingAdd(dropped, ordering: .relaxed) } }
        return kept
    }

    /// Bytes of a channel message with this status byte; 0 for data bytes and system messages.
    @_noAllocation
    static func channelMessageLength(_ status: UInt8) -> Int {
        switch status & 0xF0 {
        case 0x80, 0x90, 0xA0, 0xB0, 0xE0: return 3
        case 0xC0, 0xD0: return 2
        default: return 0
        }
    }
}
