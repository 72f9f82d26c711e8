print("make-sounds: not yet")
