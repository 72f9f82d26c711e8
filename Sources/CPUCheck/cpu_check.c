// x86-64 builds are compiled for x86-64-v2 (Package.swift: SSE4.2, on every Intel processor since
// 2008 and every AMD one since 2011; it defines AUDIOGRAPH_X86_64_V2 then), whose instructions an
// older processor cannot run: the first one would kill the process with SIGILL. This check runs
// before `main`, before any of that code, and says so in one line instead. C, compiled for the
// baseline, so it can run where the rest cannot.
#if defined(__x86_64__) && defined(AUDIOGRAPH_X86_64_V2)
#include <unistd.h>

__attribute__((constructor(101))) static void audiograph_require_x86_64_v2(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2")
        && __builtin_cpu_supports("popcnt")) {
        return;
    }
    static const char message[] =
        "audiograph: this build needs an x86-64 processor with SSE4.2 (x86-64-v2: Intel since 2008, AMD since 2011); "
        "build it with AUDIOGRAPH_X86_BASELINE=1 for this one\n";
    (void)!write(STDERR_FILENO, message, sizeof message - 1);
    _exit(1);
}
#endif
