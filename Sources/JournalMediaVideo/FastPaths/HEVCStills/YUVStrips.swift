import CFFmpeg
import Glibc
import JournalMediaResampling

/// A band of rows of a HEIF picture held as 8-bit planes while its tiles arrive row by row:
/// each decoded tile is copied in at its column (samples above 8 bits narrowed, rounding,
/// with `PlaneNarrowing`), the rows a resampler no longer needs are dropped from the top,
/// and the rest is handed to `PlanarYCbCrStream` as windows. So a grid is never held whole:
/// the band is at most one row of tiles plus the resampler's filter span high.
///
/// Made once per decoded HEIC by `HEIFPictureStream` (for every grid, and for a single item
/// above 8 bits); costs its planes (`width` × capacity rows × 1–3 planes, one allocation,
/// freed in `deinit`), one copy of every tile's samples, and one move of the kept rows per
/// tile row.
final class YUVStrips {
    let layout: YUVPixelLayout
    /// The picture's width (the grid's output width), in luma samples.
    let width: Int
    private var planes: [UnsafeMutablePointer<UInt8>] = []
    private var planeWidths: [Int] = []
    private var capacities: [Int] = []
    /// The first row held and the row after the last, per plane (plane rows of the picture).
    private(set) var tops: [Int] = []
    private(set) var bottoms: [Int] = []
    private let memory: UnsafeMutableRawPointer

    /// Planes for a picture `width` wide holding up to `lumaRows` luma rows (chroma rows
    /// scaled by the subsampling, plus one for rounding) at once.
    init?(layout: YUVPixelLayout, width: Int, lumaRows: Int, chromaRows: Int) {
        guard width > 0, lumaRows > 0 else { return nil }
        self.layout = layout
        self.width = width
        var total = 0
        for plane in 0..<layout.planeCount {
            let planeWidth = layout.planeSize(plane, width: width, height: 1).width
            let rows = plane == 0 ? lumaRows : max(1, chromaRows)
            planeWidths.append(planeWidth)
            capacities.append(rows)
            total += planeWidth * rows
        }
        guard let memory = malloc(total) else { return nil }
        self.memory = memory
        var offset = 0
        for plane in 0..<layout.planeCount {
            planes.append(memory.assumingMemoryBound(to: UInt8.self) + offset)
            offset += planeWidths[plane] * capacities[plane]
        }
        tops = Array(repeating: 0, count: layout.planeCount)
        bottoms = tops
    }

    deinit { free(memory) }

    /// Drops the rows above `luma` (luma plane) and `chroma` (chroma planes), moving the
    /// kept ones to the top of each plane.
    func drop(above luma: Int, chroma: Int) {
        for plane in planes.indices {
            let keepFrom = min(max(tops[plane], plane == 0 ? luma : chroma), bottoms[plane])
            let dropped = keepFrom - tops[plane]
            guard dropped > 0 else { continue }
            let kept = bottoms[plane] - keepFrom
            if kept > 0 {
                memmove(planes[plane], planes[plane] + dropped * planeWidths[plane], kept * planeWidths[plane])
            }
            tops[plane] = keepFrom
        }
    }

    /// Whether `lumaRows` more luma rows (from the current bottom) fit.
    func fits(lumaRows: Int) -> Bool {
        for plane in planes.indices {
            let rows = plane == 0 ? lumaRows : (lumaRows + (1 << layout.shift.y) - 1) >> layout.shift.y
            if bottoms[plane] - tops[plane] + rows > capacities[plane] { return false }
        }
        return true
    }

    /// Copies `tile` (a decoded picture in `layout`) with its left edge at luma column `left`
    /// (a multiple of the chroma subsampling) into the rows from the current bottom: its
    /// luma rows `fromRow ..< fromRow + lumaRows` (`fromRow` a multiple of the chroma
    /// subsampling) and the chroma rows that cover them; columns past the picture are
    /// dropped. Call `advance(lumaRows:)` once every tile of the row is in.
    func place(_ tile: LibavFrame, left: Int, fromRow: Int = 0, lumaRows: Int) -> Bool {
        guard YUVPixelLayout(AVPixelFormat(rawValue: tile.pointer.pointee.format)) == layout, left >= 0,
              left % (1 << layout.shift.x) == 0, fromRow >= 0, fromRow % (1 << layout.shift.y) == 0,
              fromRow + lumaRows <= tile.height, fits(lumaRows: lumaRows) else { return false }
        let source = tile.planes
        let tileSizes = (0..<layout.planeCount).map { layout.planeSize($0, width: tile.width, height: tile.height) }
        for plane in planes.indices {
            let x = plane == 0 ? left : left >> layout.shift.x
            let skipped = plane == 0 ? fromRow : fromRow >> layout.shift.y
            let rows = plane == 0 ? lumaRows
                : min(tileSizes[plane].height - skipped, (lumaRows + (1 << layout.shift.y) - 1) >> layout.shift.y)
            let columns = min(tileSizes[plane].width, planeWidths[plane] - x)
            guard let first = source.data[plane] else { return false }
            guard columns > 0, rows > 0 else { continue }
            let stride = Int(source.strides[plane])
            let base = first + skipped * stride
            let target = planes[plane] + (bottoms[plane] - tops[plane]) * planeWidths[plane] + x
            for row in 0..<rows {
                let from = base + row * stride, to = target + row * planeWidths[plane]
                if layout.bitDepth > 8 {
                    PlaneNarrowing.narrow(from, count: columns, bitDepth: layout.bitDepth, into: to)
                } else {
                    to.update(from: from, count: columns)
                }
            }
        }
        return true
    }

    /// Marks `lumaRows` more rows (and the chroma rows covering them) as held.
    func advance(lumaRows: Int) {
        let lumaBottom = bottoms[0] + lumaRows
        for plane in planes.indices {
            bottoms[plane] = plane == 0 ? lumaBottom : (lumaBottom + (1 << layout.shift.y) - 1) >> layout.shift.y
        }
    }

    /// The rows of `plane` held, as a window whose row numbers are the picture's minus
    /// `cropTop` (in that plane's rows) and whose columns start at `cropLeft` (likewise).
    func window(_ plane: Int, cropLeft: Int, cropTop: Int) -> PlanarYCbCrStream.Window {
        PlanarYCbCrStream.Window(PlanarYCbCrToRGB.Plane(base: UnsafePointer(planes[plane] + cropLeft),
                                                        width: planeWidths[plane] - cropLeft,
                                                        height: bottoms[plane] - tops[plane], stride: planeWidths[plane]),
                                 top: tops[plane] - cropTop)
    }
}
