// AppTests: tests land here.
