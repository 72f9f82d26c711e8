// libsamplerate (Secret Rabbit Code): used to convert sample files to the engine rate on load.
#pragma once
#include <samplerate.h>
