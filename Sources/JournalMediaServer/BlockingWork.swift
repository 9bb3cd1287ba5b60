import Foundation

/// Runs CPU- or disk-bound request work (multipart parsing, staging files) on a thread of
/// its own instead of Swift's cooperative pool, whose few threads (one per core) also answer
/// `/healthz` and every other request: a parse that takes a while must not stall them.
/// Costs one thread start (tens of microseconds) per call; the caller's task waits without
/// holding a thread.
enum BlockingWork {
    static func run<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(Failure) -> T in try work() })
            }
            thread.start()
        }
        return try result.get()
    }
}

/// Hands a request body to `BlockingWork` without copying it: the thread `take()`s the
/// array, leaving the box empty, so the bytes keep a single owner and can be cut in place.
/// Used once per multipart upload; costs one small allocation.
final class BodyBox: @unchecked Sendable {
    private var bytes: [UInt8]?

    init(_ bytes: consuming [UInt8]) { self.bytes = bytes }

    /// The bytes (once; later calls get an empty array). Called by one thread only.
    func take() -> [UInt8] {
        defer { bytes = nil }
        return bytes ?? []
    }
}
