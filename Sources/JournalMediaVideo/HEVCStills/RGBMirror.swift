import JournalMediaCore

/// Flips packed 8-bit RGB pixels left↔right or top↔bottom (a HEIF `imir`). Pure Swift; runs
/// once per mirrored HEIC after scaling; costs one pass over the scaled pixels.
enum RGBMirror {
    /// `rgb` (`width` × `height`, rows `width * 3` bytes) mirrored; `horizontal` swaps left and
    /// right, otherwise top and bottom.
    static func mirror(_ rgb: [UInt8], width: Int, height: Int, horizontal: Bool) -> [UInt8] {
        guard width > 0, height > 0, rgb.count == width * height * 3 else { return rgb }
        var out = [UInt8](repeating: 0, count: rgb.count)
        let rowBytes = width * 3
        rgb.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    if horizontal {
                        for x in 0..<width {
                            let s = y * rowBytes + x * 3, t = y * rowBytes + (width - 1 - x) * 3
                            target[t] = source[s]
                            target[t + 1] = source[s + 1]
                            target[t + 2] = source[s + 2]
                        }
                    } else {
                        let s = y * rowBytes, t = (height - 1 - y) * rowBytes
                        for i in 0..<rowBytes { target[t + i] = source[s + i] }
                    }
                }
            }
        }
        return out
    }
}
