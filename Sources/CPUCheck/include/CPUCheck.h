// The processor check of x86-64-v2 builds (cpu_check.c): it runs by itself before `main`, so the
// header declares nothing a caller needs.
#pragma once
