// FFTW (single precision) for Swift: without FFTW_NO_Complex, fftwf_complex turns into an
// OpaquePointer whenever <complex.h> was seen first; with it, it is a (Float, Float) pair.
#pragma once
#define FFTW_NO_Complex 1
#include <fftw3.h>
