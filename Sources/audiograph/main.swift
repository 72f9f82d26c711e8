import AudioGraphApp
AudioGraphCommand.main()
