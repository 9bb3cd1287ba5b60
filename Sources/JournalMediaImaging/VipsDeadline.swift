import CVips
import Foundation

/// A wall-clock limit on computing one image's pixels. Attached to a lazy libvips image
/// before its pixels are asked for (`watch(_:)`): libvips signals "eval" as its worker
/// finishes each tile, the handler compares the clock with the expiry and, once past it,
/// sets the image's kill flag, which makes libvips' thread pool stop with an error at its
/// next tile. `VipsError.timedOut` then says that the error is this deadline's.
///
/// One per decode; made by the source that decodes (`StillDecoding`), the expiry counted from
/// its creation. Costs a monotonic clock read per computed tile. A single call into a
/// library that does not return between tiles (librsvg drawing one tile) cannot be cut
/// short: the decode then stops at the end of that tile.
package final class VipsDeadline: @unchecked Sendable {
    /// The limit in seconds, as given (for messages).
    package let seconds: Double
    private let expiry: UInt64
    private let lock = NSLock()
    private var killed = false

    package init(seconds: Double) {
        self.seconds = seconds
        expiry = Self.now() &+ UInt64(max(0, min(seconds, 1e9)) * 1e9)
    }

    /// The limit for messages: "10", "0.5".
    package var limitText: String {
        seconds == seconds.rounded() && seconds < 1e9 ? String(Int(seconds)) : String(seconds)
    }

    /// Whether the deadline has passed.
    package var hasExpired: Bool { Self.now() >= expiry }

    /// Seconds left before the deadline (0 once past it).
    package var remainingSeconds: Double {
        let now = Self.now()
        return now >= expiry ? 0 : Double(expiry - now) / 1e9
    }

    /// Records that the caller stopped waiting: the computation counts as killed (its result
    /// is discarded) and stops at its next tile, if it has tiles left.
    package func abandon() { markKilled() }

    /// Whether the deadline stopped a computation (set by the eval handler).
    package var didKill: Bool {
        lock.lock()
        defer { lock.unlock() }
        return killed
    }

    private func markKilled() {
        lock.lock()
        killed = true
        lock.unlock()
    }

    /// Makes `image`'s computation stop once the deadline passes. Call on the image whose
    /// pixels are about to be computed (the one `materialised()` or a saver reads).
    func watch(_ image: VipsImageHandle) {
        vips_image_set_progress(image.pointer, 1)
        let handler: jm_eval_handler = { image, _, data in
            guard let image, let data else { return }
            let deadline = Unmanaged<VipsDeadline>.fromOpaque(data).takeUnretainedValue()
            if deadline.hasExpired || deadline.didKill {
                deadline.markKilled()
                vips_image_set_kill(image, 1)
            }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<VipsDeadline>.fromOpaque(data).release()
        }
        _ = jm_connect_eval(image.pointer, handler, Unmanaged.passRetained(self).toOpaque(), release)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
