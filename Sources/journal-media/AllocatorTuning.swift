import CMalloc

/// glibc malloc settings for a batch run, applied once at the start of `main`.
///
/// Each asset allocates and frees buffers of a few MB (decoded frames and planes, 16-bit
/// poster pixels, rendition buffers). By default glibc serves many of these with fresh `mmap`s
/// and gives freed memory back at once, so every asset page-faults its working set in again.
/// With these settings freed memory stays
/// in the heap and the next asset reuses it: about half the page faults and a few per cent
/// less CPU, for some tens of MiB more peak RSS (figures in Benchmarks/RESULTS.md). Memory
/// goes back to the system once more than `trimThreshold` sits free at a heap's top.
///
/// Process-wide, so only the command-line tool sets it; a backend linking the library can
/// get the same with `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:`
/// `glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=16777216`.
enum AllocatorTuning {
    /// Allocations at least this large still get their own mapping (glibc's maximum, 32 MiB).
    static let mmapThreshold: Int32 = 32 << 20
    /// Free memory at the top of a heap kept before trimming.
    static let trimThreshold: Int32 = 256 << 20
    /// Extra heap obtained per `brk`/heap growth, so growth happens in few steps.
    static let topPad: Int32 = 16 << 20

    static func apply() {
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, trimThreshold)
        _ = mallopt(M_TOP_PAD, topPad)
    }
}
