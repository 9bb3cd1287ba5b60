import CVips
import CVipsMessages
import JournalMediaCore

/// Lets the work's `DecodeGuard` (cancellation or a deadline), handed down as a parameter, stop
/// a libvips computation part-way: it turns on the image's progress reporting and connects an "eval"
/// handler that sets the image's kill flag as soon as the guard says stop. libvips checks
/// that flag between tiles, so the computation in flight (a decode into memory, a save)
/// fails with "killed" within one tile's work; the pipeline then reports the guard's typed
/// error (`cancelled` or `timeout`, with how far the computation had got) rather than
/// libvips' message.
///
/// This is the one libvips interruption mechanism for both uses (a caller's cancellation
/// and a per-decode deadline). Runs before each libvips computation the toolkit starts
/// (`VipsImageHandle.materialised(stop:)`, the rendition savers); a no-op without a guard. Costs one signal connection per watched image and, while computing, one
/// atomic load (plus a clock read with a deadline) per tile.
package enum VipsInterrupt {
    /// Watches `image` with `stop`. Throws the libvips-side stop at once when the guard
    /// already says stop (libvips clears the kill flag when a computation starts, so a flag
    /// set beforehand would not be seen).
    static func watch(_ image: VipsImageHandle, stop: DecodeGuard?) throws(VipsError) {
        guard let current = stop else { return }
        try check(current)
        vips_image_set_progress(image.pointer, 1)
        let retained = Unmanaged.passRetained(current).toOpaque()
        _ = jm_connect_eval(image.pointer, { image, progress, data in
            guard let image, let data else { return }
            let watching = Unmanaged<DecodeGuard>.fromOpaque(data).takeUnretainedValue()
            if watching.shouldStop {
                watching.noteComputationStopped(atPercent: Int(progress?.pointee.percent ?? 0))
                vips_image_set_kill(image, 1)
            }
        }, retained, { data, _ in
            guard let data else { return }
            Unmanaged<DecodeGuard>.fromOpaque(data).release()
        })
    }

    /// Throws the error a stopped libvips computation gives ("cancelled", "ran past its
    /// deadline") when `stop` says stop: the check the in-memory paths (resize, the direct JPEG
    /// decode and still encodes) make before and between their own steps. One atomic load.
    static func check(_ stop: DecodeGuard?) throws(VipsError) {
        if let reason = stop?.stopReason { throw VipsError(message: message(reason)) }
    }

    /// Lets the guard stop a drawing libvips' kill flag cannot reach: librsvg draws an SVG tile
    /// in one call, which checks no flag. CVipsMessages' `cairo_image_surface_create` asks the
    /// guard of the computation its thread serves (the thread's `DecodeGuard.current`, lent
    /// to libvips' workers) and fails the next surface once it says stop, so the drawing
    /// unwinds within one filter pass (tens of milliseconds) of the deadline. Registered once,
    /// at libvips start-up (`VipsRuntime`).
    ///
    /// The one read of the thread's guard left in this layer, and why it must stay: the call
    /// comes from C, on a libvips worker thread, inside librsvg, with no argument through
    /// which the toolkit could hand anything down; the thread is all it has. `install(_:)`
    /// puts the guard there where work is handed to libvips (the decode's thread, the
    /// executor's slot), and CVipsMessages lends it to the workers of that computation.
    static func connectDrawingStop() {
        jm_stop_hooks_set({
            guard let current = DecodeGuard.current else { return nil }
            return Unmanaged.passRetained(current).toOpaque()
        }, { pointer in
            guard let pointer else { return 0 }
            return Unmanaged<DecodeGuard>.fromOpaque(pointer).takeUnretainedValue().shouldStop ? 1 : 0
        }, { pointer in
            guard let pointer else { return }
            Unmanaged<DecodeGuard>.fromOpaque(pointer).release()
        })
    }

    static func message(_ reason: StopReason) -> String {
        reason == .cancelled ? "cancelled" : "ran past its deadline"
    }
}
