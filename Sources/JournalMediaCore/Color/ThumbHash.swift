import Foundation

/// ThumbHash, Evan Wallace's placeholder format, written from its published description:
/// the image (at most 100×100) is composited over its average colour, converted to an
/// LPQ(A) opponent space, and each channel reduced to a few low-frequency DCT
/// coefficients, quantised to 4 bits, behind a 5–6 byte header that also encodes the
/// aspect ratio and whether there is alpha. About 25 bytes; base64 in the manifest.
///
/// Encoding runs once per asset on the analysis image (≤ 100 px); costs roughly
/// w × h × 40 multiply-adds. Decoding is for clients and tests.
public enum ThumbHash {
    /// Encodes RGBA pixels (row-major, 8 bits per channel). Nil when the size is outside 1…100.
    public static func encode(width w: Int, height h: Int, rgba: [UInt8]) -> [UInt8]? {
        guard (1...100).contains(w), (1...100).contains(h), rgba.count >= w * h * 4 else { return nil }
        let n = w * h
        var avgR = 0.0, avgG = 0.0, avgB = 0.0, avgA = 0.0
        for i in 0..<n {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            avgR += alpha / 255 * Double(rgba[i * 4])
            avgG += alpha / 255 * Double(rgba[i * 4 + 1])
            avgB += alpha / 255 * Double(rgba[i * 4 + 2])
            avgA += alpha
        }
        if avgA > 0 { avgR /= avgA; avgG /= avgA; avgB /= avgA }

        let hasAlpha = avgA < Double(n)
        let lLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, Int((lLimit * Double(w) / longest).rounded()))
        let ly = max(1, Int((lLimit * Double(h) / longest).rounded()))
        var l = [Double](repeating: 0, count: n), p = l, q = l, a = l
        for i in 0..<n {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let r = avgR * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
            let g = avgG * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
            let b = avgB * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }

        let lc = encodeChannel(l, w, h, max(3, lx), max(3, ly))
        let pc = encodeChannel(p, w, h, 3, 3)
        let qc = encodeChannel(q, w, h, 3, 3)
        let ac = hasAlpha ? encodeChannel(a, w, h, 5, 5) : nil

        let isLandscape = w > h
        let header24 = Int((63 * lc.dc).rounded())
            | Int((31.5 + 31.5 * pc.dc).rounded()) << 6
            | Int((31.5 + 31.5 * qc.dc).rounded()) << 12
            | Int((31 * lc.scale).rounded()) << 18
            | (hasAlpha ? 1 : 0) << 23
        let header16 = (isLandscape ? ly : lx)
            | Int((63 * pc.scale).rounded()) << 3
            | Int((63 * qc.scale).rounded()) << 9
            | (isLandscape ? 1 : 0) << 15
        var hash: [UInt8] = [
            UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
            UInt8(header16 & 255), UInt8(header16 >> 8),
        ]
        if let ac {
            hash.append(UInt8(Int((15 * ac.dc).rounded()) | Int((15 * ac.scale).rounded()) << 4))
        }
        let factors = [lc.ac, pc.ac, qc.ac] + (ac.map { [$0.ac] } ?? [])
        var index = 0
        let start = hash.count
        for f in factors.joined() {
            let slot = start + index >> 1
            if slot >= hash.count { hash.append(0) }
            hash[slot] |= UInt8(Int((15 * f).rounded()) << ((index & 1) << 2))
            index += 1
        }
        return hash
    }

    private static func encodeChannel(_ channel: [Double], _ w: Int, _ h: Int, _ nx: Int, _ ny: Int)
        -> (dc: Double, ac: [Double], scale: Double)
    {
        var dc = 0.0, scale = 0.0
        var ac: [Double] = []
        var fx = [Double](repeating: 0, count: w)
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                var f = 0.0
                for y in 0..<h {
                    let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                    var row = 0.0
                    for x in 0..<w { row += channel[x + y * w] * fx[x] }
                    f += row * fy
                }
                f /= Double(w * h)
                if cx > 0 || cy > 0 {
                    ac.append(f)
                    scale = max(scale, abs(f))
                } else {
                    dc = f
                }
                cx += 1
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// The aspect ratio (width / height) a hash encodes, approximately.
    public static func approximateAspectRatio(_ hash: [UInt8]) -> Double? {
        guard hash.count >= 5 else { return nil }
        let header = hash[3]
        let hasAlpha = hash[2] & 0x80 != 0
        let isLandscape = hash[4] & 0x80 != 0
        let lx = isLandscape ? (hasAlpha ? 5 : 7) : Int(header & 7)
        let ly = isLandscape ? Int(header & 7) : (hasAlpha ? 5 : 7)
        guard ly > 0 else { return nil }
        return Double(lx) / Double(ly)
    }

    /// Decodes a hash to a small RGBA image (longest side 32), as clients do.
    public static func decode(_ hash: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8])? {
        guard hash.count >= 5, let ratio = approximateAspectRatio(hash) else { return nil }
        let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let header16 = Int(hash[3]) | Int(hash[4]) << 8
        let lDC = Double(header24 & 63) / 63
        let pDC = Double((header24 >> 6) & 63) / 31.5 - 1
        let qDC = Double((header24 >> 12) & 63) / 31.5 - 1
        let lScale = Double((header24 >> 18) & 31) / 31
        let hasAlpha = header24 >> 23 != 0
        let pScale = Double((header16 >> 3) & 63) / 63
        let qScale = Double((header16 >> 9) & 63) / 63
        let isLandscape = header16 >> 15 != 0
        let lx = max(3, isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7)
        let ly = max(3, isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        guard !hasAlpha || hash.count >= 6 else { return nil }
        let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
        let aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0
        var index = 0
        let start = hasAlpha ? 6 : 5
        func channel(_ nx: Int, _ ny: Int, _ scale: Double) -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let slot = start + index >> 1
                    let nibble = slot < hash.count ? Int(hash[slot] >> ((index & 1) << 2)) & 15 : 0
                    ac.append((Double(nibble) / 7.5 - 1) * scale)
                    index += 1
                    cx += 1
                }
            }
            return ac
        }
        let lAC = channel(lx, ly, lScale)
        let pAC = channel(3, 3, pScale * 1.25)
        let qAC = channel(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? channel(5, 5, aScale) : []
        let w = Int((ratio > 1 ? 32 : 32 * ratio).rounded())
        let h = Int((ratio > 1 ? 32 / ratio : 32).rounded())
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let cxStop = max(lx, hasAlpha ? 5 : 3), cyStop = max(ly, hasAlpha ? 5 : 3)
        var fx = [Double](repeating: 0, count: cxStop), fy = [Double](repeating: 0, count: cyStop)
        for y in 0..<h {
            for x in 0..<w {
                var l = lDC, p = pDC, q = qDC, a = aDC
                for cx in 0..<cxStop { fx[cx] = cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) }
                for cy in 0..<cyStop { fy[cy] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
                var j = 0
                for cy in 0..<ly {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx * ly < lx * (ly - cy) { l += lAC[j] * fx[cx] * fy2; j += 1; cx += 1 }
                }
                j = 0
                for cy in 0..<3 {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx < 3 - cy {
                        let f = fx[cx] * fy2
                        p += pAC[j] * f; q += qAC[j] * f
                        j += 1; cx += 1
                    }
                }
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        var cx = cy > 0 ? 0 : 1
                        let fy2 = fy[cy] * 2
                        while cx < 5 - cy { a += aAC[j] * fx[cx] * fy2; j += 1; cx += 1 }
                    }
                }
                let b = l - 2.0 / 3.0 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                let o = (y * w + x) * 4
                rgba[o] = UInt8(max(0, min(255, (255 * min(1, r)).rounded())))
                rgba[o + 1] = UInt8(max(0, min(255, (255 * min(1, g)).rounded())))
                rgba[o + 2] = UInt8(max(0, min(255, (255 * min(1, b)).rounded())))
                rgba[o + 3] = UInt8(max(0, min(255, (255 * min(1, a)).rounded())))
            }
        }
        return (w, h, rgba)
    }
}
