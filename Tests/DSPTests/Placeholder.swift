// DSPTests: tests land here.
