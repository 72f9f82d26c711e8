// EngineTests: tests land here.
