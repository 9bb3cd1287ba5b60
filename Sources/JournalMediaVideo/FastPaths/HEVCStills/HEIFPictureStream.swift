import CFFmpeg
import JournalMediaCore
import JournalMediaHEIF
import JournalMediaResampling

/// Decodes a HEIF image's coded tiles row by row and resamples them to the target size as
/// they come (`PlanarYCbCrStream`), so a grid is never held whole: the tiles of one grid
/// row go into `YUVStrips` at their columns, every output row their taps cover is made, and
/// the rows no later output reads are dropped. A single 8-bit item is read in place from the
/// decoded frame; a single item above 8 bits goes through the strips too (to be narrowed).
///
/// Made once per HEIC by `HEIFHEVCDecoder`; costs the HEVC decode of every tile (the bulk),
/// one copy of each tile's samples, the resample; peak memory about one grid row of tiles
/// plus the filter span (`width` × (tile height + span) × 1.5 bytes for 4:2:0), one decoded
/// tile, and the RGB output.
struct HEIFPictureStream {
    /// The crop (`clap`) applied before the scale, in the image's pixels.
    var crop: (left: Int, top: Int, width: Int, height: Int)
    var target: (width: Int, height: Int)
    /// Hold every row before resampling (the strips as tall as the image): the whole-image
    /// path the tile-wise one is compared with in tests.
    var wholeImage = false
    /// The decode's guard, asked between tiles.
    var stop: DecodeGuard?

    /// Luma rows copied (and narrowed) at a time from a picture one tile wide, a single item
    /// above 8 bits most often: a multiple of 4, so bands start on chroma rows. A 33 MP
    /// 10-bit camera HEIF then needs strips of 7008 × (band + filter span) samples, not a
    /// 65 MB copy of the picture beside libavcodec's frame.
    static let band = 128

    /// The RGB24 pixels of `coded` (cropped, scaled to `target`, before rotations and
    /// mirrors), with the matrix and range from the `colr` nclx box, else the stream's VUI.
    /// Throws the reason when a picture cannot be read this way.
    func decode(_ coded: HEIFCodedImage, decoder: HEVCTileDecoder) throws(LibavFailure) -> [UInt8] {
        let frame = try LibavFrame()
        try decoder.decode(coded.tiles[0], into: frame)
        let format = AVPixelFormat(rawValue: frame.pointer.pointee.format)
        guard let layout = YUVPixelLayout(format) else {
            throw LibavFailure("its pixels are \(YUVPixelLayout.name(format)), which this path does not convert")
        }
        if coded.nclx == nil, [AVCOL_TRC_SMPTE2084, AVCOL_TRC_ARIB_STD_B67].contains(frame.pointer.pointee.color_trc) {
            throw LibavFailure("its HEVC stream signals a PQ/HLG (HDR) transfer, which this path does not tone-map")
        }
        let signal = Self.signal(frame)
        guard let matrix = PlanarYCbCrToRGB.Matrix.h273(coded.nclx?.matrix ?? signal.matrix) else {
            throw LibavFailure("its colour matrix (H.273 code \(coded.nclx?.matrix ?? signal.matrix)) is not a Y'CbCr matrix")
        }
        let tile = (width: frame.width, height: frame.height)
        guard tile.width * coded.columns >= coded.width, tile.height * coded.rows >= coded.height else {
            throw LibavFailure("its tiles (\(tile.width)×\(tile.height)) do not cover the \(coded.width)×\(coded.height) image")
        }
        let (sx, sy) = layout.shift
        guard crop.left % (1 << sx) == 0, crop.top % (1 << sy) == 0,
              coded.columns == 1 || tile.width % (1 << sx) == 0, coded.rows == 1 || tile.height % (1 << sy) == 0 else {
            throw LibavFailure("its crop or tiles do not fall on chroma samples")
        }
        let stream = PlanarYCbCrStream(width: crop.width, height: crop.height, chromaShift: layout.shift,
                                       hasChroma: layout.planeCount == 3, outWidth: target.width, outHeight: target.height,
                                       matrix: matrix, fullRange: coded.nclx?.fullRange ?? signal.fullRange)
        let chromaCrop = (left: crop.left >> sx, top: crop.top >> sy)
        if coded.columns == 1, coded.rows == 1, layout.bitDepth == 8 {
            // One 8-bit picture: read in place.
            let planes = frame.planes
            func window(_ plane: Int) -> PlanarYCbCrStream.Window? {
                guard let base = planes.data[plane] else { return nil }
                let stride = Int(planes.strides[plane])
                let (left, top) = plane == 0 ? (crop.left, crop.top) : chromaCrop
                let size = layout.planeSize(plane, width: coded.width, height: coded.height)
                return .init(PlanarYCbCrToRGB.Plane(base: base + top * stride + left, width: size.width - left,
                                                    height: size.height - top, stride: stride), top: 0)
            }
            guard let luma = window(0) else { throw LibavFailure("the decoded picture has no luma plane") }
            withExtendedLifetime(frame) {
                _ = stream.emit(luma: luma, cb: layout.planeCount == 3 ? window(1) : nil, cr: layout.planeCount == 3 ? window(2) : nil)
            }
        } else {
            let span = stream.largestGroupSpan
            // One column of tiles (a single item above 8 bits, mostly) goes in `band` rows at a
            // time, so its samples are never copied whole; several columns a row of tiles at a time.
            let band = wholeImage ? coded.height : coded.columns == 1 ? min(Self.band, tile.height, coded.height)
                : min(tile.height, coded.height)
            guard let strips = YUVStrips(layout: layout, width: coded.width, lumaRows: band + span.luma + 1,
                                         chromaRows: (band >> sy) + span.chroma + 2) else {
                throw LibavFailure("out of memory for \(coded.width)-pixel-wide strips")
            }
            let lastRow = crop.top + crop.height
            rows: for row in 0..<coded.rows {
                let top = row * tile.height
                guard top < lastRow else { break }
                let rows = min(tile.height, coded.height - top)
                for column in 0..<coded.columns {
                    let index = row * coded.columns + column
                    if index > 0 {
                        // A stop between tiles: give up here; the caller's next check reports it.
                        if stop?.shouldStop == true { throw LibavFailure("stopped") }
                        try decoder.decode(coded.tiles[index], into: frame)
                    }
                    guard (frame.width, frame.height) == tile else {
                        throw LibavFailure("its tiles differ in size (\(frame.width)×\(frame.height) after \(tile.width)×\(tile.height))")
                    }
                    guard coded.columns == 1 || strips.place(frame, left: column * tile.width, lumaRows: rows) else {
                        throw LibavFailure("its tiles differ in pixel format")
                    }
                }
                // The tile row's luma rows in bands (one band when several columns were placed).
                for first in stride(from: 0, to: rows, by: coded.columns == 1 ? band : rows) {
                    let count = coded.columns == 1 ? min(band, rows - first) : rows
                    guard coded.columns > 1 || strips.place(frame, left: 0, fromRow: first, lumaRows: count) else {
                        throw LibavFailure("its tiles differ in pixel format")
                    }
                    strips.advance(lumaRows: count)
                    let lastBand = first + count == rows && (row == coded.rows - 1 || top + rows >= lastRow)
                    guard !wholeImage || lastBand else { continue }
                    stream.emit(luma: strips.window(0, cropLeft: crop.left, cropTop: crop.top),
                                cb: layout.planeCount == 3 ? strips.window(1, cropLeft: chromaCrop.left, cropTop: chromaCrop.top) : nil,
                                cr: layout.planeCount == 3 ? strips.window(2, cropLeft: chromaCrop.left, cropTop: chromaCrop.top) : nil)
                    if stream.isComplete { break rows }
                    let needed = stream.firstNeededRows
                    strips.drop(above: needed.luma + crop.top, chroma: needed.chroma == .max ? .max : needed.chroma + chromaCrop.top)
                }
            }
        }
        guard stream.isComplete else { throw LibavFailure("its tiles ended before the image did") }
        return stream.takeOutput()
    }

    /// The matrix coefficients and range in a decoded picture's VUI (`AVColorSpace` values are
    /// the H.273 codes; libavcodec reports limited range when the VUI does not say).
    private static func signal(_ frame: LibavFrame) -> (matrix: Int, fullRange: Bool) {
        let picture = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: picture.format)
        let full = picture.color_range == AVCOL_RANGE_JPEG || SDRFrameConverter.isJPEGRange(format)
        return (Int(picture.colorspace.rawValue), full)
    }
}
