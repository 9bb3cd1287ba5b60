import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// CMYK JPEGs whose rendition is small (≤ `DirectProfileTransform.maxPixels`) are decoded by
/// `JPEGResampledDecode` and converted by lcms unoptimised, through their own profile
/// (`cmyk.jpg`, fitted to 300 px) or libvips' CMYK one (`icc/cmyk-small-untagged.jpg`,
/// 120×80, no profile; Tests/SampleMaker/make-samples.sh). The colours must be libvips'
/// `icc_transform` of the whole decode, within what lcms' table optimisation changes.
@Suite struct SmallCMYKDecodeTests {
    /// libvips' reference: the CMYK JPEG loaded at 1/`shrink` DCT scale (the decode's own
    /// scale) through `icc_transform` (embedded profile, else libvips' CMYK one) to sRGB,
    /// relative intent, lcms' optimised tables, in 8 bits.
    func reference(_ name: String, shrink: Int) throws -> TestImage {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        return try bytes.withUnsafeBytes { buffer in
            let load = try VipsOperationCall("jpegload_buffer")
            try load.set("buffer", .borrowedBlob(buffer))
            try load.set("shrink", .int(shrink))
            try load.build()
            let icc = try VipsOperationCall("icc_transform")
            try icc.set("in", .image(try load.outputImage()))
            try icc.set("output_profile", .string("srgb"))
            try icc.set("input_profile", .string("cmyk"))
            try icc.set("embedded", .bool(true))
            try icc.set("intent", .nick("relative"))
            try icc.build()
            return try TestImage(castToUchar: try icc.outputImage())
        }
    }

    @Test(arguments: [("cmyk.jpg", 300, 200, 2), ("icc/cmyk-small-untagged.jpg", 120, 80, 1)])
    func smallCMYKMatchesLibvipsColourConversion(_ name: String, width: Int, height: Int, shrink: Int) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let header = try bytes.withUnsafeBytes { try ImageHeaderReader.read($0, format: .jpeg) }
        #expect(header.colourSpace == .cmyk)
        #expect(ImageDecoder.convertsCMYKThroughICC(header, colourManaged: true))
        #expect(width * height <= DirectProfileTransform.maxPixels,
                "the rendition below is converted by lcms unoptimised (larger ones by icc_transform)")
        let spec = RenditionSpec(role: "full", format: .png, width: width)
        let result = AssetProcessor(options: ProcessingOptions(renditions: [spec]))
            .processBlocking(fileAt: TestSupport.sample(name), displayName: name)
        let rendition = try #require(result.renditions.first, "\(result.error?.message ?? "")")
        let ours = try TestImage(rendition.data)
        #expect((ours.width, ours.height, ours.bands) == (width, height, 3))
        let expected = try reference(name, shrink: shrink)
        #expect((expected.width, expected.height) == (width, height))
        // Mean and largest per-sample difference against libvips' optimised transform.
        var total = 0.0, largest = 0.0
        for y in stride(from: 0, to: height, by: 4) {
            for x in stride(from: 0, to: width, by: 4) {
                let a = try ours.pixel(x, y), b = try expected.pixel(x, y)
                for band in 0..<3 {
                    let difference = abs(a[band] - b[band])
                    total += difference
                    largest = max(largest, difference)
                }
            }
        }
        let samples = Double(((height + 3) / 4) * ((width + 3) / 4) * 3)
        #expect(total / samples < 2, "\(name): mean difference \(total / samples)")
        #expect(largest <= 12, "\(name): largest difference \(largest)")
    }
}
