import FileAccess

/// Prints text that holds what came from outside (a preset's names, a SoundFont's, a port's, a
/// path), with control characters escaped and its lines kept.
func printOutside(_ text: String) { print(PrintableText.escaped(text, keepingNewlines: true)) }
