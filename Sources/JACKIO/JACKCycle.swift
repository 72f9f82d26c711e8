/// One process cycle as the renderer sees it: JACK's own port buffers (planar float, valid until
/// the callback returns; render into the outputs in place) and the MIDI that arrived on the MIDI
/// in port during the cycle. Plain value; render thread.
import MemberwiseInit

public struct JACKCycle {
    /// Frames in this cycle: JACK's buffer size, which may change between cycles (`jack_bufsize`).
    public var frames: Int
    public var outLeft: UnsafeMutablePointer<Float>
    public var outRight: UnsafeMutablePointer<Float>
    /// The input ports' buffers; nil without input ports.
    public var inLeft: UnsafeMutablePointer<Float>?
    public var inRight: UnsafeMutablePointer<Float>?
    /// The cycle's MIDI in events, in frame order (channel messages of 1–3 bytes; others dropped).
    public var midi: UnsafePointer<JACKMIDIEvent>
    public var midiCount: Int
    /// Ports connected to the MIDI in port now (as of the last connection change); 0 without one.
    public var midiSources: Int
}

/// A short MIDI message at a frame of the cycle. Plain value.
public struct JACKMIDIEvent: Sendable, Equatable {
    public var frame: UInt32
    public var status: UInt8
    public var data1: UInt8
    public var data2: UInt8
    /// 1, 2 or 3 bytes.
    public var length: UInt8
}

/// Who renders each cycle: a C function the process callback calls with `context` and a pointer to
/// the cycle's `JACKCycle`. A C function, not a closure or a protocol: the process callback may
/// not allocate, retain or call through an existential (Sources/DSP/README.md), and the renderer
/// lives in a module above this one. The function is checked by the compiler in its own module.
@PublicInit
public struct JACKRenderer: @unchecked Sendable {
    public typealias Function = @convention(c) (_ context: UnsafeMutableRawPointer?, _ cycle: UnsafeRawPointer?) -> Void

    public var context: UnsafeMutableRawPointer
    public var function: Function
}
