import CVips
import Foundation
@testable import JournalMediaCore
@testable import JournalMediaSuggestions
@testable import JournalMediaImaging

/// A rendered card's pixels, read back from libvips, with the questions the card tests ask.
struct CardPixels {
    let width: Int
    let height: Int
    let bands: Int
    let bytes: [UInt8]

    init(_ card: RenderedCard) throws {
        let image = card.image.image
        var size = 0
        guard let raw = vips_image_write_to_memory(image.pointer, &size) else {
            throw VipsError(message: VipsRuntime.takeErrorBuffer())
        }
        defer { g_free(raw) }
        width = image.width
        height = image.height
        bands = image.bands
        bytes = Array(UnsafeRawBufferPointer(start: raw, count: size))
    }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * width + x) * bands
        return Array(bytes[start..<start + bands])
    }

    /// Pixels in the rectangle whose colour differs from `colour` by more than `tolerance`
    /// in some channel.
    func count(in box: CardBox? = nil, differingFrom colour: [UInt8], tolerance: Int = 24) -> Int {
        let area = box ?? CardBox(x: 0, y: 0, width: width, height: height)
        var total = 0
        for y in max(0, area.y)..<min(height, area.y + area.height) {
            for x in max(0, area.x)..<min(width, area.x + area.width) {
                let start = (y * width + x) * bands
                for c in 0..<3 where abs(Int(bytes[start + c]) - Int(colour[c])) > tolerance {
                    total += 1
                    break
                }
            }
        }
        return total
    }

    /// Pixels in the rectangle exactly equal to `colour`.
    func count(in box: CardBox? = nil, equalTo colour: [UInt8]) -> Int {
        let area = box ?? CardBox(x: 0, y: 0, width: width, height: height)
        var total = 0
        for y in max(0, area.y)..<min(height, area.y + area.height) {
            for x in max(0, area.x)..<min(width, area.x + area.width) {
                let start = (y * width + x) * bands
                if bytes[start] == colour[0] && bytes[start + 1] == colour[1] && bytes[start + 2] == colour[2] {
                    total += 1
                }
            }
        }
        return total
    }
}

enum CardSamples {
    static let background = "#f7f4ef"
    static let foreground = "#1a1a1a"
    static let secondary = "#4a4a4a"
    static let accent = "#c2410c"

    static func rgb(_ hex: String) -> [UInt8] {
        let value = UInt32(hex.dropFirst(), radix: 16) ?? 0
        return [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func spec(headline: String, lines: [String] = [], chips: [String] = [], footnote: String? = nil,
                     badge: String? = nil, hero: CardHero? = nil, width: Int = 600, height: Int = 750,
                     background: CardBackground = .solid(background)) -> CardSpec {
        CardSpec(itemType: "test", appearance: .light, width: width, height: height, background: background,
                 foreground: foreground, secondaryForeground: secondary, accent: accent, headline: headline,
                 lines: lines, chips: chips, footnote: footnote, badge: badge, hero: hero)
    }

    /// A picture made in memory: a red-green ramp over blue; with `alpha`, an opaque centre
    /// in a transparent frame, like an app icon.
    static func picture(width: Int, height: Int, alpha: Bool = false) throws -> DecodedImage {
        let bands = alpha ? 4 : 3
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 160]
                if alpha {
                    let inside = x >= width / 4 && x < width * 3 / 4 && y >= height / 4 && y < height * 3 / 4
                    bytes.append(inside ? 255 : 0)
                }
            }
        }
        let raw = bytes.withUnsafeBytes { buffer in
            vips_image_new_from_memory_copy(buffer.baseAddress, buffer.count, Int32(width), Int32(height),
                                            Int32(bands), VIPS_FORMAT_UCHAR)
        }
        guard let raw else { throw VipsError(message: VipsRuntime.takeErrorBuffer()) }
        let tag = try VipsOperationCall("copy")
        try tag.set("in", .image(VipsImageHandle(owning: raw)))
        try tag.set("interpretation", .nick("srgb"))
        try tag.build()
        return DecodedImage(image: try tag.outputImage().materialised(), hasRealTransparency: alpha)
    }
}
