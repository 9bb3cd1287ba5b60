import Foundation
import Synchronization
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaVideo

/// Both cores for a lone asset (issue 29): the executor says how many threads an asset may
/// add (`AssetExecutor.spareCores`: its idle slots shared among the assets running, none
/// while callers wait), the request hands that to the decode, and a grid HEIC's tile rows are
/// then decoded on two threads (`TileRowHelper`) with the same pixels as on one.
@Suite struct HEICTwoCoresTests {
    /// A grid HEIC of `columns`×`rows` of grid-3x2.heic's 256×256 tiles.
    static func grid(columns: Int, rows: Int) throws -> [UInt8] {
        let sample = Array(try Data(contentsOf: TestSupport.sample("heif/grid-3x2.heic")))
        let coded = try #require(HEIFImageItems.primary(in: MemoryBytes(bytes: sample)))
        return LargeGridHEICTests.gridHEIF(configuration: coded.configuration, tiles: coded.tiles, tileSize: 256,
                                           columns: columns, rows: rows)
    }

    static func decode(_ bytes: [UInt8], box: Int, spare: SpareCores) throws -> HEIFDecodedRGB {
        try bytes.withUnsafeBytes { HEIFHEVCDecoder.attempt($0, boxWidth: box, boxHeight: box, spareCores: spare) }.get()
    }

    /// The committed grids and a generated 8×6 one (the layout of a 12 MP iPhone photo, with
    /// 256-pixel tiles), decoded with a spare core, give the bytes one thread gives, into the
    /// 1600 box and at 300 px; the helper thread took some of the 8×6 grid's tiles.
    @Test(arguments: ["heif/grid-3x2.heic", "heif/10bit-422-grid-rotated.heic", "8x6"])
    func tilesOnTwoThreadsGiveTheSamePixels(_ name: String) throws {
        let bytes = name == "8x6" ? try Self.grid(columns: 8, rows: 6)
            : Array(try Data(contentsOf: TestSupport.sample(name)))
        for box in [1600, 300] {
            let one = try Self.decode(bytes, box: box, spare: .none)
            let before = TileRowHelper.tilesDecoded.load(ordering: .relaxed)
            let two = try Self.decode(bytes, box: box, spare: SpareCores { 1 })
            // The two threads take columns as they go: on a grid of 3×2 small tiles the calling
            // thread may take them all before the helper wakes; on 8×6 the helper takes some.
            if name == "8x6" {
                #expect(TileRowHelper.tilesDecoded.load(ordering: .relaxed) > before, "\(name): no tile on the second thread")
            }
            #expect((two.width, two.height) == (one.width, one.height))
            #expect(two.rgb == one.rgb, "\(name) into \(box): the pixels differ")
        }
    }

    /// A single picture (x265-coded, with wavefronts) decoded with libavcodec's two slice
    /// threads gives the bytes one thread gives.
    @Test(arguments: ["photo.heic", "heif/rotated-mirrored.heic", "heif/10bit-422.heic"])
    func aSinglePictureOnSliceThreadsGivesTheSamePixels(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let one = try Self.decode(bytes, box: 1600, spare: .none)
        let two = try Self.decode(bytes, box: 1600, spare: SpareCores { 1 })
        #expect(two.rgb == one.rgb, "\(name): the pixels differ")
    }

    /// A spare core that goes away (another asset arrives) between rows: the rows after it
    /// are decoded on one thread, and the pixels are still the same.
    @Test func aCoreTakenBackMidwayGivesTheSamePixels() throws {
        let bytes = try Self.grid(columns: 8, rows: 6)
        let asked = Mutex(0)
        let fading = SpareCores { asked.withLock { count in count += 1; return count <= 2 ? 1 : 0 } }
        let one = try Self.decode(bytes, box: 1600, spare: .none)
        let two = try Self.decode(bytes, box: 1600, spare: fading)
        #expect(asked.withLock { $0 } >= 6, "asked once per tile row")
        #expect(two.rgb == one.rgb)
    }

    /// The executor's answer: a lone asset in a 2-slot executor may add one thread; two
    /// assets running add none; a 1-slot executor never has a spare; outside any work, none.
    @Test func theExecutorSharesOnlyIdleSlots() async throws {
        let two = AssetExecutor(maxConcurrentAssets: 2, label: "test")
        #expect(two.spareCores.now == 0, "nothing running")
        let alone = try await two.run { two.spareCores.now }
        #expect(alone == 1)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        async let first: Int = two.run {
            started.signal()
            release.wait()
            return 0
        }
        started.wait()
        let beside = try await two.run { two.spareCores.now }
        release.signal()
        _ = try await first
        #expect(beside == 0)
        let single = AssetExecutor(maxConcurrentAssets: 1, label: "test")
        #expect(try await single.run { single.spareCores.now } == 0)
        let four = AssetExecutor(maxConcurrentAssets: 4, label: "test")
        #expect(try await four.run { four.spareCores.now } == 3)
    }

    /// Through the processor: an upload run alone on a 2-slot executor decodes its grid on two
    /// threads (its result the same as on a 1-slot executor, which never lends a core).
    @Test func aLoneUploadDecodesItsGridOnTwoThreads() async throws {
        let bytes = try Self.grid(columns: 8, rows: 6)
        let lone = AssetProcessor(executor: AssetExecutor(maxConcurrentAssets: 2, label: "test"))
        let before = TileRowHelper.tilesDecoded.load(ordering: .relaxed)
        let two = await lone.process(data: bytes, filename: "grid.heic")
        #expect(TileRowHelper.tilesDecoded.load(ordering: .relaxed) > before, "no tile on a second thread")
        let single = AssetProcessor(executor: AssetExecutor(maxConcurrentAssets: 1, label: "test"))
        let one = await single.process(data: bytes, filename: "grid.heic")
        #expect(two.error == nil && one.error == nil)
        #expect(two.renditions.map(\.data) == one.renditions.map(\.data))
    }
}
