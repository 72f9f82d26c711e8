// MIDITests: tests land here.
