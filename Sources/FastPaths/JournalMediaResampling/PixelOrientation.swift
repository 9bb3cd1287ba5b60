/// Turns and mirrors 8-bit pixels held in memory (1–4 interleaved bands) into the upright
/// picture an EXIF orientation (1–8) describes, as libvips' `autorot` does: 2 mirrors left
/// and right, 3 turns half-way, 4 mirrors top and bottom, 5 transposes, 6 turns a quarter
/// clockwise, 7 transverses, 8 turns a quarter anticlockwise. Pure Swift, no C library.
///
/// Used by the JPEG decode for the image it made in memory (`ImageDecoder.oriented`, instead
/// of libvips' `rot`/`flip` and a sink into memory), by the video layer for posters
/// (`RGBRotation`), and for HEIF/AVIF turns where no matrix-shaper pass does them
/// (`DirectProfileTransform`, `ImageDecoder`; `walk` also steers `MatrixShaperConversion`).
/// Runs once per rotated or mirrored image; costs one pass over its pixels into a buffer of
/// the same size.
package enum PixelOrientation {
    /// The upright size of a `width`×`height` picture under `orientation` (5–8 swap the sides).
    package static func uprightSize(width: Int, height: Int, orientation: Int) -> (width: Int, height: Int) {
        orientation >= 5 && orientation <= 8 ? (height, width) : (width, height)
    }

    /// Where the upright picture's pixels are in the stored one (`width`×`height`, `bands`
    /// bytes a pixel, rows packed): the upright pixel (x, y) starts at byte
    /// start + x·across + y·down of the source. An orientation outside 2–8 walks it as it is.
    package static func walk(width: Int, height: Int, bands: Int, orientation: Int) -> (start: Int, across: Int, down: Int) {
        let row = width * bands
        let right = (width - 1) * bands, bottom = (height - 1) * row
        return switch orientation {
        case 2: (right, -bands, row)
        case 3: (right + bottom, -bands, -row)
        case 4: (bottom, bands, -row)
        case 5: (0, row, bands)
        case 6: (bottom, -row, bands)
        case 7: (right + bottom, -row, -bands)
        case 8: (right, row, -bands)
        default: (0, bands, row)
        }
    }

    /// Writes the upright picture of `source` (`width`×`height`, `bands` bytes a pixel, rows
    /// packed) to `target`, which holds `width * height * bands` bytes and does not overlap
    /// `source`. An orientation outside 2–8 copies the pixels as they are.
    package static func upright(_ source: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int, orientation: Int,
                                into target: UnsafeMutablePointer<UInt8>) {
        guard width > 0, height > 0, (1...4).contains(bands) else { return }
        let (start, across, down) = walk(width: width, height: height, bands: bands, orientation: orientation)
        let out = uprightSize(width: width, height: height, orientation: orientation)
        var written = 0
        for y in 0..<out.height {
            var from = start + y * down
            switch bands {
            case 1:
                for _ in 0..<out.width { target[written] = source[from]; written += 1; from += across }
            case 3:
                for _ in 0..<out.width {
                    target[written] = source[from]
                    target[written + 1] = source[from + 1]
                    target[written + 2] = source[from + 2]
                    written += 3
                    from += across
                }
            default:
                for _ in 0..<out.width {
                    for band in 0..<bands { target[written + band] = source[from + band] }
                    written += bands
                    from += across
                }
            }
        }
    }

    /// `pixels` (`width`×`height`, `bands` bytes a pixel) upright for `orientation`, with
    /// the upright size; unchanged when the sizes do not match the byte count.
    package static func upright(_ pixels: [UInt8], width: Int, height: Int, bands: Int,
                                orientation: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, (1...4).contains(bands), pixels.count == width * height * bands,
              (2...8).contains(orientation) else { return (pixels, width, height) }
        let size = uprightSize(width: width, height: height, orientation: orientation)
        let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, let to = buffer.baseAddress {
                    upright(from, width: width, height: height, bands: bands, orientation: orientation, into: to)
                }
            }
            count = pixels.count
        }
        return (out, size.width, size.height)
    }
}
