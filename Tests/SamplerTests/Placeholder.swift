// SamplerTests: tests land here.
