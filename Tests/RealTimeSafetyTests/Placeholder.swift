// RealTimeSafetyTests: tests land here.
