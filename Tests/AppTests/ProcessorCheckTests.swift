import AudioTestSupport
import Foundation
import Testing

/// x86-64 builds are compiled for x86-64-v2 (Package.swift); on an older processor `audiograph`
/// must say so in one line, not die of an illegal instruction. The judge is QEMU's user-mode
/// emulator (qemu-user, scripts/install-deps) running the built binary as on a Core 2, which has
/// SSSE3 but not SSE4.1, and as on the first x86-64-v2 processor, Nehalem.
@Suite struct ProcessorCheckTests {
    static let qemu = "/usr/bin/qemu-x86_64"

    private func runEmulated(cpu: String) throws -> Subprocess.Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: Self.qemu), "qemu-user is not installed (scripts/install-deps)")
        return try Subprocess.run(Self.qemu, ["-cpu", cpu, CommandLineTests.binary, "--help"])
    }

    #if arch(x86_64)
    @Test func anOlderProcessorIsToldInOneLine() throws {
        let r = try runEmulated(cpu: "core2duo")
        #expect(r.status == 1, "\(r.output)")
        #expect(r.output.hasPrefix("audiograph: this build needs an x86-64 processor with SSE4.2"), "\(r.output)")
        #expect(r.output.filter { $0 == "\n" }.count == 1, "one line: \(r.output)")
    }

    @Test func anX86_64_v2ProcessorRunsIt() throws {
        let r = try runEmulated(cpu: "Nehalem")
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("USAGE: audiograph"), "\(r.output)")
    }
    #endif
}
