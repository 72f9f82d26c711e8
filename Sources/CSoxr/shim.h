// libsoxr (the SoX resampler): converts sample files to the engine rate on load.
#pragma once
#include <soxr.h>
