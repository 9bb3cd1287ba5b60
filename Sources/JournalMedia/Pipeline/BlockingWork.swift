import Dispatch

/// Runs blocking work (file I/O, libvips, libav) on a Dispatch worker thread and resumes
/// the awaiting task with its result, keeping Swift's cooperative thread pool free.
/// Used by `AssetProcessor.process(fileAt:)` and by `Batch` for each asset.
enum BlockingWork {
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
