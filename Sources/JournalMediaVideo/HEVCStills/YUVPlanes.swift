import CFFmpeg
import Glibc
import JournalMediaCore

/// 8-bit planar YUV (or grey) pixels as libav lays them out: up to four plane pointers with
/// their strides, valid while `owner` (the decoded `LibavFrame` or a `YUVMosaic`) lives.
///
/// A view, no pixels of its own; made once per HEIC by `HEIFHEVCDecoder`.
package struct YUVPlanes {
    package var format: AVPixelFormat
    package var width: Int
    package var height: Int
    var data: [UnsafePointer<UInt8>?]
    var strides: [Int32]
    let owner: AnyObject

    /// The 8-bit planar formats the HEIF fast path converts (others fall back to libvips).
    static let supportedFormats: [AVPixelFormat] = [
        AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P,
        AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_GRAY8,
    ]

    /// log2 of the chroma subsampling, horizontally and vertically.
    static func chromaShift(_ format: AVPixelFormat) -> (x: Int, y: Int) {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return (0, 0) }
        return (Int(descriptor.pointee.log2_chroma_w), Int(descriptor.pointee.log2_chroma_h))
    }

    static func planeCount(_ format: AVPixelFormat) -> Int { format == AV_PIX_FMT_GRAY8 ? 1 : 3 }

    /// The planes of a decoded frame, limited to `width`×`height` from its top left.
    package init?(frame: LibavFrame, width: Int, height: Int) {
        let format = AVPixelFormat(rawValue: frame.pointer.pointee.format)
        guard Self.supportedFormats.contains(format), frame.width >= width, frame.height >= height else { return nil }
        let planes = frame.planes
        self.init(format: format, width: width, height: height, data: Array(planes.data.prefix(4)),
                  strides: Array(planes.strides.prefix(4)), owner: frame)
    }

    package init(format: AVPixelFormat, width: Int, height: Int, data: [UnsafePointer<UInt8>?], strides: [Int32], owner: AnyObject) {
        self.format = format
        self.width = width
        self.height = height
        self.data = data
        self.strides = strides
        self.owner = owner
    }

    /// The `width`×`height` region from (`left`, `top`); nil unless it lies inside and its
    /// origin falls on a chroma sample.
    func cropped(left: Int, top: Int, width: Int, height: Int) -> YUVPlanes? {
        let shift = Self.chromaShift(format)
        guard left >= 0, top >= 0, width > 0, height > 0, left + width <= self.width, top + height <= self.height,
              left % (1 << shift.x) == 0, top % (1 << shift.y) == 0 else { return nil }
        var region = self
        region.width = width
        region.height = height
        for plane in 0..<Self.planeCount(format) {
            let x = plane == 0 ? left : left >> shift.x, y = plane == 0 ? top : top >> shift.y
            region.data[plane] = data[plane].map { $0 + y * Int(strides[plane]) + x }
        }
        return region
    }
}

/// A grid's tiles assembled into one 8-bit planar image of the grid's output size (the
/// right and bottom tiles clipped), so each plane of the whole photo is resampled at once.
///
/// Made once per grid HEIC by `HEIFHEVCDecoder`; costs one copy of every tile's pixels into
/// one populated anonymous mapping (1.5 bytes per pixel for 4:2:0, about 18 MB for 12 MP; not
/// cleared beyond the kernel's zero pages), unmapped in `deinit`.
/// Its pixels are defined only once every tile of a covering grid has been placed.
package final class YUVMosaic {
    package let format: AVPixelFormat
    package let width: Int
    package let height: Int
    private let shift: (x: Int, y: Int)
    private var planes: [UnsafeMutablePointer<UInt8>] = []
    private var planeSizes: [(width: Int, height: Int)] = []
    private var mappedBytes = 0

    package init?(format: AVPixelFormat, width: Int, height: Int) {
        guard YUVPlanes.supportedFormats.contains(format), width > 0, height > 0 else { return nil }
        self.format = format
        self.width = width
        self.height = height
        shift = YUVPlanes.chromaShift(format)
        for plane in 0..<YUVPlanes.planeCount(format) {
            let w = plane == 0 ? width : (width + (1 << shift.x) - 1) >> shift.x
            let h = plane == 0 ? height : (height + (1 << shift.y) - 1) >> shift.y
            planeSizes.append((w, h))
        }
        // One mapping for all planes, its pages faulted in by the kernel in one go
        // (MAP_POPULATE) rather than one trap per 4 kB page as the tiles land. Not cleared
        // further: the caller places tiles that cover it (HEIFHEVCDecoder checks tile size ×
        // grid ≥ the output size, and every tile of the grid must place).
        mappedBytes = planeSizes.reduce(0) { $0 + $1.width * $1.height }
        guard let memory = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
              memory != MAP_FAILED else { return nil }
        var offset = 0
        for size in planeSizes {
            planes.append(memory.assumingMemoryBound(to: UInt8.self) + offset)
            offset += size.width * size.height
        }
    }

    deinit {
        if let first = planes.first { munmap(first, mappedBytes) }
    }

    /// Copies a decoded tile (same pixel format) with its top left at (`left`, `top`), both
    /// multiples of the chroma subsampling; whatever falls outside the mosaic is dropped.
    func place(_ tile: LibavFrame, left: Int, top: Int) -> Bool {
        guard AVPixelFormat(rawValue: tile.pointer.pointee.format) == format, left % (1 << shift.x) == 0,
              top % (1 << shift.y) == 0 else { return false }
        let source = tile.planes
        for plane in planes.indices {
            let sx = plane == 0 ? 0 : shift.x, sy = plane == 0 ? 0 : shift.y
            let tileWidth = (tile.width + (1 << sx) - 1) >> sx, tileHeight = (tile.height + (1 << sy) - 1) >> sy
            let x = left >> sx, y = top >> sy
            let (planeWidth, planeHeight) = planeSizes[plane]
            let columns = min(tileWidth, planeWidth - x), rows = min(tileHeight, planeHeight - y)
            guard let base = source.data[plane] else { return false }
            guard columns > 0, rows > 0 else { continue }
            let stride = Int(source.strides[plane])
            for row in 0..<rows {
                (planes[plane] + (y + row) * planeWidth + x).update(from: base + row * stride, count: columns)
            }
        }
        return true
    }

    var view: YUVPlanes {
        var data: [UnsafePointer<UInt8>?] = planes.map { UnsafePointer($0) }
        var strides = planeSizes.map { Int32($0.width) }
        while data.count < 4 { data.append(nil); strides.append(0) }
        return YUVPlanes(format: format, width: width, height: height, data: data, strides: strides, owner: self)
    }
}
