import CMalloc

/// glibc malloc settings for a batch run, applied once at the start of `main`.
///
/// Each asset allocates and frees buffers of a few MB (decoded frames and planes, 16-bit
/// poster pixels, rendition buffers). By default glibc serves many of these with fresh `mmap`s
/// and gives freed memory back at once, so every asset page-faults its working set in again:
/// about 26,000 faults for the 9-clip poster benchmark. With these settings freed memory stays
/// in the heap and the next asset reuses it: about 15,000 faults and ~6 % less CPU (measured
/// with `perf stat -r 10 -e page-faults,task-clock`); the 16-photo renditions benchmark goes
/// from 104,000 to 52,000 faults. The price is memory kept for reuse: peak RSS at `--jobs 2`
/// rose from 241 to 281 MiB on the photo benchmark and from 134 to 160 MiB on two 48 MP JPEGs.
/// Memory goes back to the system once more than `trimThreshold` sits free at a heap's top.
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
