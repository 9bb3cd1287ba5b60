import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF

/// A 200 MP grid HEIC, the size of Samsung's 200 MP mode, made of the x265-coded tiles of
/// Samples/heif/grid-3x2.heic repeated (48 × 64 tiles of 256×256: 12288×16384), converted by
/// the CLI: over the whole-image pixel limit but under the grid limit, it is decoded a row of
/// tiles at a time, so the process stays far below the 300 MB its YUV alone would take whole.
@Suite struct LargeGridHEICTests {
    /// A HEIF (`ftyp`, `meta`, `mdat`) whose primary item is a `grid` of `columns`×`rows`
    /// `hvc1` tiles, tile i being `tiles[i % tiles.count]`, all sharing one `hvcC` and `ispe`.
    static func gridHEIF(configuration: [UInt8], tiles: [[UInt8]], tileSize: Int, columns: Int, rows: Int) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(8 + payload.count) + Array(type.utf8) + payload }
        func full(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }
        let count = columns * rows
        let (width, height) = (columns * tileSize, rows * tileSize)
        let grid: [UInt8] = [0, 1, UInt8(rows - 1), UInt8(columns - 1)] + u32(width) + u32(height)
        let ids = (0..<count).map { $0 + 2 }
        let infos = [full("infe", version: 2, u16(1) + u16(0) + Array("grid".utf8) + [0])]
            + ids.map { full("infe", version: 2, u16($0) + [0, 0] + Array("hvc1".utf8) + [0]) }
        let iinf = full("iinf", u16(ids.count + 1) + infos.flatMap { $0 })
        let iref = full("iref", box("dimg", u16(1) + u16(count) + ids.flatMap(u16)))
        let ispe = { (w: Int, h: Int) in full("ispe", u32(w) + u32(h)) }
        let ipco = box("ipco", box("hvcC", configuration) + ispe(tileSize, tileSize) + ispe(width, height))
        // ipma version 0, flags 0: item id 16-bit, 7-bit property indices (1-based), essential bit.
        let ipma = full("ipma", u32(count + 1) + u16(1) + [1, 0x83] + ids.flatMap { u16($0) + [2, 0x81, 0x02] })
        let hdlr = full("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = full("pitm", u16(1))
        let lengths = (0..<count).map { tiles[$0 % tiles.count].count }
        func meta(mdatData: Int) -> [UInt8] {
            // iloc version 1: offset 4, length 4, base 0, index 0 bytes; grid data in idat.
            var entries = u16(1) + u16(1) + u16(0) + u16(1) + u32(0) + u32(grid.count)
            var offset = mdatData
            for (index, id) in ids.enumerated() {
                entries += u16(id) + u16(0) + u16(0) + u16(1) + u32(offset) + u32(lengths[index])
                offset += lengths[index]
            }
            let iloc = full("iloc", version: 1, [0x44, 0x00] + u16(ids.count + 1) + entries)
            return full("meta", hdlr + pitm + iloc + iinf + iref + box("iprp", ipco + ipma) + box("idat", grid))
        }
        let ftyp = box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heicmiaf".utf8))
        let headerSize = ftyp.count + meta(mdatData: 0).count
        var file = ftyp + meta(mdatData: headerSize + 16)
        let total = lengths.reduce(0, +)
        file += u32(1) + Array("mdat".utf8) + [0, 0, 0, 0] + u32(16 + total)  // 64-bit size
        for index in 0..<count { file += tiles[index % tiles.count] }
        return file
    }

    /// `columns`×`rows` tiles of grid-3x2.heic's, written to `folder`.
    static func writeGrid(columns: Int, rows: Int, in folder: URL, name: String) throws -> URL {
        let sample = Array(try Data(contentsOf: TestSupport.sample("heif/grid-3x2.heic")))
        let coded = try #require(HEIFImageItems.primary(in: MemoryBytes(bytes: sample)))
        let file = gridHEIF(configuration: coded.configuration, tiles: coded.tiles, tileSize: 256, columns: columns, rows: rows)
        let url = folder.appendingPathComponent(name)
        try Data(file).write(to: url)
        return url
    }

    @Test func twoHundredMegapixelGridConvertsInBoundedMemory() throws {
        let folder = try TestSupport.temporaryFolder()
        let input = try Self.writeGrid(columns: 48, rows: 64, in: folder, name: "grid-200mp.heic")
        let output = folder.appendingPathComponent("out")
        // A debug build on a busy machine takes far longer than the default 10 s decode limit.
        let run = try ChildProcessPeak.runCLI(["convert", input.path, "--output", output.path, "--jobs", "2", "--timeout", "600"])
        print("200 MP grid HEIC (12288×16384, 3072 tiles): exit \(run.status), peak RSS \(run.peakBytes / 1_048_576) MiB, "
              + "\(String(format: "%.1f", run.seconds)) s")
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: output.appendingPathComponent("manifest.json")))
        let asset = try #require(manifest.assets.first)
        #expect(asset.error == nil && asset.width == 12288 && asset.height == 16384)
        #expect(asset.renditions.count == 2, "\(asset.renditions.map(\.role))")
        // The whole picture's 8-bit YUV alone would be 302 MB.
        #expect(run.peakBytes < 300 * 1_048_576, "peak RSS \(run.peakBytes / 1_048_576) MiB")
    }

    /// Past the grid limit it is refused before decoding, saying which limit.
    @Test func gridOverTheTiledLimitIsRefused() throws {
        let folder = try TestSupport.temporaryFolder()
        let input = try Self.writeGrid(columns: 8, rows: 8, in: folder, name: "grid-4mp.heic")
        let run = try ChildProcessPeak.runCLI(["convert", input.path, "--output", folder.appendingPathComponent("out").path,
                                               "--max-pixels", "1000000", "--max-tiled-pixels", "2000000"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("over the limit of 2000000 for a grid HEIC (--max-tiled-pixels)"), "\(run.stderr)")
    }
}
