import CJACK

// The process callback's calls the compiler's real-time check cannot see into, opted out here by
// name and nowhere else in JACKIO (Sources/DSP/README.md, "Checked by the compiler"):
// - libjack's port buffer and MIDI reads (C): they return pointers into the server's shared
//   memory for this cycle and copy an event header, without allocation or locks (JACK's own rule
//   for the process thread);
// - the renderer's entry, a C function pointer: it is checked by `@_noAllocation` in its own
//   module, where it is defined.
enum RenderThreadCalls {
    @_semantics("no_performance_analysis") @inline(__always)
    static func buffer(_ port: OpaquePointer, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        jack_port_get_buffer(port, frames)
    }

    @_semantics("no_performance_analysis") @inline(__always)
    static func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> UInt32 {
        jack_midi_get_event_count(buffer)
    }

    @_semantics("no_performance_analysis") @inline(__always)
    static func midiEvent(_ event: inout jack_midi_event_t, _ buffer: UnsafeMutableRawPointer, _ index: UInt32) -> Int32 {
        jack_midi_event_get(&event, buffer, index)
    }

    @_semantics("no_performance_analysis") @inline(__always)
    static func render(_ renderer: JACKRenderer, _ cycle: UnsafeRawPointer) {
        renderer.function(renderer.context, cycle)
    }
}
