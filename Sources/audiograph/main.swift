import AudioGraphApp
import CPUCheck  // nothing to call: its check runs before main, on x86-64 (Package.swift)
import PanelServer

// The web panel server links Hummingbird: only this executable brings it in.
PanelServer.installAsPanel()
AudioGraphCommand.mainEscapingOutsideText()
