import JournalMediaCore

/// Turns packed 8-bit RGB pixels clockwise by a quarter-turn multiple, so a poster shows the
/// way the video's display matrix says. Pure Swift; runs once per poster after the frame is
/// chosen, only for rotated videos; costs one pass over the poster's pixels and one output
/// buffer of the same size.
enum RGBRotation {
    /// `rgb` (`width` × `height`, rows `width * 3` bytes) turned `degrees` clockwise (0, 90,
    /// 180, 270; other values leave it unchanged). Returns the new pixels and size.
    static func rotate(_ rgb: [UInt8], width: Int, height: Int, clockwise degrees: Int) -> (rgb: [UInt8], width: Int, height: Int) {
        guard [90, 180, 270].contains(degrees), width > 0, height > 0, rgb.count == width * height * 3 else {
            return (rgb, width, height)
        }
        let turned = degrees != 180
        let outWidth = turned ? height : width, outHeight = turned ? width : height
        var out = [UInt8](repeating: 0, count: rgb.count)
        rgb.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let (tx, ty): (Int, Int) = switch degrees {
                        case 90: (height - 1 - y, x)       // top-left → top-right
                        case 180: (width - 1 - x, height - 1 - y)
                        default: (y, width - 1 - x)        // 270: top-left → bottom-left
                        }
                        let s = (y * width + x) * 3, t = (ty * outWidth + tx) * 3
                        target[t] = source[s]
                        target[t + 1] = source[s + 1]
                        target[t + 2] = source[s + 2]
                    }
                }
            }
        }
        return (out, outWidth, outHeight)
    }
}
