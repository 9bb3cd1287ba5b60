import CVips
import Foundation
import JournalMediaCore

/// Whether an embedded ICC profile is sRGB in all but name, so converting from it to sRGB
/// would not change any 8-bit pixel: an RGB matrix/TRC profile (no lookup-table tags) whose
/// D50 colorants are sRGB's within 0.003 and whose three tone curves, composed with the
/// sRGB encoding, move no level 0–255 by half a step or more. Camera and phone JPEGs tagged
/// "sRGB IEC61966-2.1" (HP's 1024-entry curves, or a parametric curve) and most web images
/// pass; Display P3, Adobe RGB, ProPhoto, grey and CMYK profiles do not.
///
/// Runs once per image with a profile, when the header is read; costs a walk of the tag
/// table and 3 × 256 curve evaluations (microseconds). Spares such images the profile check
/// and the per-pixel transform (on a 12 MP JPEG about as long as the decode itself).
package enum SRGBProfileMatch {
    /// sRGB's red, green and blue colorants adapted to D50 (Bradford), as ICC profiles store them.
    static let colorants: [(tag: String, xyz: (Double, Double, Double))] = [
        ("rXYZ", (0.4361, 0.2225, 0.0139)), ("gXYZ", (0.3851, 0.7169, 0.0971)), ("bXYZ", (0.1431, 0.0606, 0.7141)),
    ]

    /// The profile attached to `image` (libvips' `icc-profile-data`), if any, matches sRGB.
    static func matches(_ image: VipsImageHandle) -> Bool {
        var data: UnsafeRawPointer?
        var length = 0
        guard image.hasField(VIPS_META_ICC_NAME),
              vips_image_get_blob(image.pointer, VIPS_META_ICC_NAME, &data, &length) == 0, let data
        else {
            _ = VipsRuntime.takeErrorBuffer()
            return false
        }
        return matches(UnsafeRawBufferPointer(start: data, count: length))
    }

    package static func matches(_ profile: UnsafeRawBufferPointer) -> Bool {
        func u32(_ at: Int) -> UInt32? {
            guard at >= 0, at + 4 <= profile.count else { return nil }
            return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(profile[at + $1]) }
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= profile.count else { return nil }
            return Int(profile[at]) << 8 | Int(profile[at + 1])
        }
        func s15Fixed16(_ at: Int) -> Double? { u32(at).map { Double(Int32(bitPattern: $0)) / 65536 } }
        func signature(_ text: String) -> UInt32 { text.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }

        guard profile.count >= 132, u32(16) == signature("RGB "), u32(20) == signature("XYZ "),
              let tagCount = u32(128), tagCount <= 200 else { return false }
        var tags: [UInt32: (offset: Int, size: Int)] = [:]
        for index in 0..<Int(tagCount) {
            let entry = 132 + index * 12
            guard let tag = u32(entry), let offset = u32(entry + 4), let size = u32(entry + 8),
                  Int(offset) + Int(size) <= profile.count else { return false }
            tags[tag] = (Int(offset), Int(size))
        }
        // Lookup-table profiles are what lcms would use instead of the matrix: not judged here.
        for lut in ["A2B0", "A2B1", "A2B2", "B2A0", "B2A1", "B2A2"] where tags[signature(lut)] != nil { return false }
        for (tag, expected) in colorants {
            guard let entry = tags[signature(tag)], entry.size >= 20, u32(entry.offset) == signature("XYZ "),
                  let x = s15Fixed16(entry.offset + 8), let y = s15Fixed16(entry.offset + 12),
                  let z = s15Fixed16(entry.offset + 16),
                  abs(x - expected.0) < 0.003, abs(y - expected.1) < 0.003, abs(z - expected.2) < 0.003
            else { return false }
        }
        for tag in ["rTRC", "gTRC", "bTRC"] {
            guard let entry = tags[signature(tag)], let curve = toneCurve(at: entry.offset, size: entry.size, u32: u32,
                                                                            u16: u16, s15Fixed16: s15Fixed16),
                  curveIsSRGB(curve) else { return false }
        }
        return true
    }

    /// The tone curve stored at `offset` as a function from 0…1 to linear 0…1: `curv`
    /// (identity, a gamma, or a table interpolated linearly) or `para` (ICC function types 0–4).
    private static func toneCurve(
        at offset: Int, size: Int, u32: (Int) -> UInt32?, u16: (Int) -> Int?, s15Fixed16: (Int) -> Double?
    ) -> ((Double) -> Double)? {
        let curv: UInt32 = 0x6375_7276, para: UInt32 = 0x7061_7261
        switch u32(offset) {
        case curv:
            guard let count = u32(offset + 8).map(Int.init), 12 + 2 * count <= size else { return nil }
            if count == 0 { return { $0 } }
            if count == 1 {
                guard let raw = u16(offset + 12) else { return nil }
                let gamma = Double(raw) / 256
                return { pow($0, gamma) }
            }
            var table: [Double] = []
            table.reserveCapacity(count)
            for index in 0..<count {
                guard let value = u16(offset + 12 + 2 * index) else { return nil }
                table.append(Double(value) / 65535)
            }
            return { x in
                let position = min(max(x, 0), 1) * Double(count - 1)
                let low = Int(position), high = min(low + 1, count - 1)
                let t = position - Double(low)
                return table[low] * (1 - t) + table[high] * t
            }
        case para:
            guard let type = u16(offset + 8), (0...4).contains(type) else { return nil }
            let counts = [1, 3, 4, 5, 7]
            var p: [Double] = []
            for index in 0..<counts[type] {
                guard let value = s15Fixed16(offset + 12 + 4 * index) else { return nil }
                p.append(value)
            }
            return { x in
                switch type {
                case 0: return pow(x, p[0])
                case 1: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], p[0]) : 0
                case 2: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], p[0]) + p[3] : p[3]
                case 3: return x >= p[4] ? pow(p[1] * x + p[2], p[0]) : p[3] * x
                default: return x >= p[4] ? pow(p[1] * x + p[2], p[0]) + p[5] : p[3] * x + p[6]
                }
            }
        default:
            return nil
        }
    }

    /// The curve followed by the sRGB encoding moves no 8-bit level by half a step.
    private static func curveIsSRGB(_ curve: (Double) -> Double) -> Bool {
        for level in 0...255 {
            let linear = min(max(curve(Double(level) / 255), 0), 1)
            let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            if abs(encoded * 255 - Double(level)) >= 0.5 { return false }
        }
        return true
    }
}
