// PresetsTests: tests land here.
