// AudioFilesTests: tests land here.
