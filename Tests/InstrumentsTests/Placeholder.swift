// InstrumentsTests: tests land here.
