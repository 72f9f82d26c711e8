// ALSAIOTests: tests land here.
