// MicEffectsTests: tests land here.
