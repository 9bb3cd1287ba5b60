import Foundation

/// Remembers, per embedded ICC profile (its bytes, with the pixel layout it was tested for),
/// whether lcms converts it to sRGB (`ImageHeaderReader.profileConverts`). The check runs a
/// one-pixel `icc_transform`, and libvips sets up two lcms transforms for it: on a
/// lookup-table (v4 "preference") profile that costs as much as the decode's own transform
/// of a small JPEG. Photos of one library share a few profiles (a camera's
/// Adobe RGB, an editor's Display P3), so each distinct profile is tested once per process.
///
/// Costs one hash of the profile bytes per lookup (microseconds for a 60 KB profile) and
/// holds at most `capacity` entries of at most `maxProfileBytes` each (about 16 MB worst
/// case); when full it is emptied, never grown. Thread-safe (one lock, held only for the
/// dictionary access, never during the transform).
enum ProfileUsabilityCache {
    /// What the test transform depends on besides the profile bytes.
    struct Key: Hashable {
        var profile: [UInt8]
        var bands: Int
        var format: Int
        var interpretation: Int
        var cmyk: Bool
    }

    static let capacity = 64
    /// Larger profiles are tested every time rather than kept.
    static let maxProfileBytes = 256 * 1024

    private static let lock = NSLock()
    nonisolated(unsafe) private static var answers: [Key: Bool] = [:]
    nonisolated(unsafe) private static var counters = (hits: 0, misses: 0)

    /// The cached answer for `key`, or `test()`'s, remembered when the profile is small
    /// enough. `test` runs outside the lock, so two threads may both test a new profile once.
    static func converts(_ key: Key, test: () -> Bool) -> Bool {
        lock.lock()
        if let known = answers[key] {
            counters.hits += 1
            lock.unlock()
            return known
        }
        counters.misses += 1
        lock.unlock()
        let answer = test()
        guard key.profile.count <= maxProfileBytes else { return answer }
        lock.lock()
        if answers.count >= capacity { answers.removeAll(keepingCapacity: true) }
        answers[key] = answer
        lock.unlock()
        return answer
    }

    /// Lookups answered from the cache and lookups that ran the test, since the process
    /// started (for tests and diagnostics).
    static var statistics: (hits: Int, misses: Int) {
        lock.lock()
        defer { lock.unlock() }
        return counters
    }
}
