import Foundation
import Synchronization

/// An `AssetExecutor` slot's count of the work still running in it: the slot's own work, plus
/// every thread that work started and may leave behind (`DeadlineThread`, when a decode that
/// cannot be stopped at once outlives its deadline). The slot is given back when the count
/// reaches zero, so a caller answered "timeout" does not free room for more work while the
/// decode it abandoned still holds a core and its memory.
///
/// Made by the executor for each work item and installed on its thread (`current`); a thread
/// the work starts takes a `hold()` before it starts and `letGo()`s when it returns. Costs one
/// atomic add per hold and one thread-specific lookup.
final class ExecutorSlotHold: Sendable {
    private let holders = Atomic<Int>(1)
    private let free: @Sendable () -> Void

    /// A hold for the work about to run; `free` runs once, when the last holder lets go.
    init(free: @escaping @Sendable () -> Void) {
        self.free = free
    }

    /// One more piece of work in the slot.
    func hold() { holders.wrappingAdd(1, ordering: .relaxed) }

    /// That piece of work has returned; the last one gives the slot back.
    func letGo() {
        if holders.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { free() }
    }

    /// The hold of the slot the calling thread runs in; nil outside an executor.
    static var current: ExecutorSlotHold? {
        guard let raw = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<ExecutorSlotHold>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with this hold as the calling thread's `current`.
    func install<T>(_ body: () -> T) -> T {
        let previous = pthread_getspecific(Self.threadKey)
        pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
        defer {
            pthread_setspecific(Self.threadKey, previous)
            withExtendedLifetime(self) {}
        }
        return body()
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
