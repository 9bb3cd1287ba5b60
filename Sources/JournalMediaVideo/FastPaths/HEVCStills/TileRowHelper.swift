import Foundation
import Synchronization

/// A second thread with an HEVC decoder of its own, which decodes some of a grid row's tiles
/// while the calling thread decodes the others: the two take the row's columns one at a time
/// from a shared counter (so a slow tile does not leave one thread idle), each placing its
/// tiles into the strips at their own columns. The calling thread waits for the helper before
/// it resamples the row, so the output is the same as from one thread.
///
/// Made by `HEIFPictureStream` on the first tile row for which the scheduler has a spare core
/// (`SpareCores`), used for every row that still has one, and ended (its thread joined) before
/// the decode returns, so it never outlives the work that holds the executor's slot. Costs a
/// thread start and a second decoder context per HEIC, and two semaphore hand-overs per row.
final class TileRowHelper: @unchecked Sendable {
    private let decoder: HEVCTileDecoder
    private let frame: LibavFrame
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// The row's work, set before `wake` is signalled and cleared before `done` is (the
    /// semaphores order every access); nil when woken: end.
    private var work: ((HEVCTileDecoder, LibavFrame) -> Void)?
    /// Tiles decoded by helpers in this process, for tests (one relaxed add per tile).
    static let tilesDecoded = Atomic<Int>(0)

    init(decoder: HEVCTileDecoder) throws(LibavFailure) {
        self.decoder = decoder
        frame = try LibavFrame()
        let thread = Thread { [self] in loop() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func loop() {
        while runOnce() { done.signal() }
        done.signal()
    }

    /// Waits for a row's work and runs it; false when told to end. The work is let go before
    /// `done` is signalled, so nothing it captured outlives the caller's `decode`.
    private func runOnce() -> Bool {
        wake.wait()
        guard let work else { return false }
        self.work = nil
        work(decoder, frame)
        return true
    }

    /// Decodes the columns `first..<count` of one row on this thread and the helper's:
    /// `tile(column, decoder, frame)` decodes and places one tile. Returns when both are done;
    /// throws the first failure (the other thread stops taking columns then).
    func decode(columns first: Int, _ count: Int, calling: (HEVCTileDecoder, LibavFrame), stop: () -> Bool,
                tile: @escaping (Int, HEVCTileDecoder, LibavFrame) throws(LibavFailure) -> Void) throws(LibavFailure) {
        let shared = SharedColumns(next: first)
        work = { decoder, frame in
            while let column = shared.take(below: count) {
                do throws(LibavFailure) { try tile(column, decoder, frame) } catch { shared.fail(error) }
                Self.tilesDecoded.wrappingAdd(1, ordering: .relaxed)
            }
        }
        wake.signal()
        while let column = shared.take(below: count) {
            if stop() {
                shared.fail(LibavFailure("stopped"))
                break
            }
            do throws(LibavFailure) { try tile(column, calling.0, calling.1) } catch { shared.fail(error) }
        }
        done.wait()
        if let failure = shared.failure { throw failure }
    }

    /// Ends the helper thread and waits for it.
    func end() {
        work = nil
        wake.signal()
        done.wait()
    }

    /// The next column to decode and the first failure, shared by the two threads.
    private final class SharedColumns: Sendable {
        private let state: Mutex<(next: Int, failure: LibavFailure?)>

        init(next: Int) { state = Mutex((next, nil)) }

        /// The next column below `count`, nil when none is left or one failed.
        func take(below count: Int) -> Int? {
            state.withLock { state in
                guard state.failure == nil, state.next < count else { return nil }
                state.next += 1
                return state.next - 1
            }
        }

        func fail(_ error: LibavFailure) {
            state.withLock { state in if state.failure == nil { state.failure = error } }
        }

        var failure: LibavFailure? { state.withLock { $0.failure } }
    }
}
