import Foundation
import Testing
@testable import JournalMediaImaging

/// Issue 33, item 5: CVipsMessages' interposition is turned on only for the libvips it was
/// checked against, and the check is made at run time on the library actually loaded (not
/// the headers built against). A child run of this test binary with a `vips_version`
/// preloaded that reports 8.15 must start with the records off (libvips' own buffer read,
/// plain libvips behaviour); the same child without it, on Debian's 8.14, with them on.
@Suite struct VipsRecordsVersionGateTests {
    static let probeVariable = "JM_PROBE_VIPS_RECORDS_OUT"

    /// In a child run only (the variable set): writes whether the records are on.
    @Test func probe() throws {
        guard let out = ProcessInfo.processInfo.environment[Self.probeVariable] else { return }
        try VipsRuntime.ensure()
        try "\(VipsRuntime.ownMessages) \(VipsRuntime.version)".write(toFile: out, atomically: true, encoding: .utf8)
    }

    /// Runs this binary's `probe` with `environment` added; its answer.
    static func childAnswer(_ environment: [String: String]) throws -> String {
        let folder = try TestSupport.temporaryFolder("probe")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("answer").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", "VipsRecordsVersionGateTests/probe"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging([probeVariable: out]) { $1 }) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (try? String(contentsOfFile: out, encoding: .utf8)) ?? "no answer (status \(process.terminationStatus))"
    }

    @Test(.timeLimit(.minutes(2))) func aLibvipsReportingAnotherVersionRunsWithoutTheRecords() throws {
        guard ProcessInfo.processInfo.environment[Self.probeVariable] == nil else { return }
        let folder = try TestSupport.temporaryFolder("preload")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("version.c"), library = folder.appendingPathComponent("libversion.so")
        // libvips' `int vips_version(int flag)`: 0 major, 1 minor, 2 micro.
        try "int vips_version(int flag) { return flag == 0 ? 8 : flag == 1 ? 15 : 0; }\n"
            .write(to: source, atomically: true, encoding: .utf8)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-o", library.path, source.path]
        try cc.run()
        cc.waitUntilExit()
        try #require(cc.terminationStatus == 0, "cc could not build the preload")
        let plain = try Self.childAnswer([:])
        let preloaded = try Self.childAnswer(["LD_PRELOAD": library.path])
        #expect(plain.hasPrefix("true "), "records on Debian's libvips 8.14: \(plain)")
        #expect(preloaded.hasPrefix("false "), "a libvips reporting 8.15 must run without the records: \(preloaded)")
        // The switch turns them off on 8.14 too.
        let off = try Self.childAnswer([VipsRuntime.recordsVariable: "0"])
        #expect(off.hasPrefix("false "), "JOURNAL_MEDIA_VIPS_RECORDS=0: \(off)")
    }
}
