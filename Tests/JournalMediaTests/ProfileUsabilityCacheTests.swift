import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 19: the one-pixel transform that decides whether an embedded profile converts runs
/// once per distinct profile, not once per image (two lcms set-ups each in libvips 8.14, ~25 ms
/// for a lookup-table profile).
@Suite struct ProfileUsabilityCacheTests {
    func header(_ name: String) throws -> ImageHeader {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let format = try #require(FormatSniffer.sniff(bytes))
        return try bytes.withUnsafeBytes { try ImageHeaderReader.read($0, format: format) }
    }

    @Test func theTestRunsOncePerProfileAndLayout() {
        let profile = (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 1) }
        let key = ProfileUsabilityCache.Key(profile: profile, bands: 3, format: 0, interpretation: 22, cmyk: false)
        var runs = 0
        #expect(!ProfileUsabilityCache.converts(key) { runs += 1; return false })
        #expect(!ProfileUsabilityCache.converts(key) { runs += 1; return true }, "the first answer is kept")
        #expect(runs == 1)
        var cmyk = key
        cmyk.cmyk = true
        #expect(ProfileUsabilityCache.converts(cmyk) { runs += 1; return true }, "another layout is tested again")
        #expect(runs == 2)
        // Profiles too large to keep are tested every time.
        let huge = ProfileUsabilityCache.Key(profile: [UInt8](repeating: 1, count: ProfileUsabilityCache.maxProfileBytes + 1),
                                             bands: 3, format: 0, interpretation: 22, cmyk: false)
        _ = ProfileUsabilityCache.converts(huge) { runs += 1; return true }
        _ = ProfileUsabilityCache.converts(huge) { runs += 1; return true }
        #expect(runs == 4)
    }

    /// Reading the same headers again answers from the cache, with the same verdicts as the
    /// first read (a usable Display P3 profile, unusable device-link and named-colour ones).
    @Test func repeatedHeadersReuseTheVerdict() throws {
        let samples = ["orientation-6-gps-p3.jpg", "icc/link-profile.jpg", "icc/nmcl-profile.jpg"]
        let first = try samples.map { try header($0) }
        #expect(first.allSatisfy { $0.hasProfile && !$0.profileIsSRGB }, "each one is tested")
        let before = ProfileUsabilityCache.statistics
        let second = try samples.map { try header($0).profileUsable }
        let after = ProfileUsabilityCache.statistics
        #expect(first.map(\.profileUsable) == [true, false, false])
        #expect(second == first.map(\.profileUsable))
        #expect(after.hits - before.hits >= samples.count, "every second read is a cache hit")
    }
}
