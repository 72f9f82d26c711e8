import AudioGraphApp
import PanelServer

// The web panel server links Hummingbird: only this executable brings it in.
PanelServer.installAsPanel()
AudioGraphCommand.mainEscapingOutsideText()
