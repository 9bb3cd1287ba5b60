import CMalloc
import Glibc

/// glibc malloc setting for a batch run, applied once at the start of `main`: at most one
/// malloc arena per core (at least two).
///
/// Every asset decodes on a thread of its own (`DeadlineThread`), so over a batch hundreds of
/// threads come and go; glibc gives threads up to 8 arenas per core, and each arena keeps the
/// freed buffers of the large decodes it served (frames, planes, rendition buffers of tens of
/// MB) as its own free memory. With one arena per core the same free memory is reused by the
/// next decode instead of sitting in another arena: over the shared corpus at `--jobs 2`,
/// peak RSS falls by about 40 % for the same CPU time (the settings tried, with their
/// figures, are in the benchmark results' allocator section).
///
/// The earlier settings (keep up to 256 MiB free per heap, 32 MiB mmap threshold) halved page
/// faults but held that memory in every arena; they are gone.
///
/// Process-wide, so only the command-line tool sets it; a backend linking the library gets the
/// same with `GLIBC_TUNABLES=glibc.malloc.arena_max=N` (N = cores).
enum AllocatorTuning {
    /// One arena per core, at least two (the main thread's and one for the decode threads).
    static func arenas(cores: Int) -> Int32 {
        Int32(clamping: max(2, cores))
    }

    static func apply() {
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        _ = mallopt(M_ARENA_MAX, arenas(cores: cores > 0 ? cores : 2))
    }
}
