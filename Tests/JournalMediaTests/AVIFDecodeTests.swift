import CFFmpeg
import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// The in-process AVIF path (`AVIFAV1Decoder`: libavcodec's libdav1d + swscale or the HDR
/// tone-map, at the target size) against libvips' heifload (libheif 1.15 + dav1d), the
/// decoder it replaces for single-item AVIFs and falls back to for the rest.
///
/// Samples (made with avifenc 0.11.1 / libaom 3.6 from a 300×200 picture with a red, blue,
/// green and white corner, top-left clockwise):
/// - `heif/avif-sdr-8bit-rot90-mirror.avif`: 8-bit 4:2:0, nclx 1/13/6 limited range,
///   `irot` 1 (90° anticlockwise) then `imir` left↔right: shown 200×300;
/// - `heif/avif-hdr-pq-p3-10bit-rot270.avif`: 10-bit 4:2:0, nclx 12/16/1 (Display P3, PQ,
///   BT.709 matrix) limited range, `irot` 3: shown 200×300; its white is 203 cd/m².
@Suite struct AVIFDecodeTests {
    static let sdr = "heif/avif-sdr-8bit-rot90-mirror.avif"
    static let hdr = "heif/avif-hdr-pq-p3-10bit-rot270.avif"

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: TestSupport.sample(name))) }

    /// What the photo source's decode gives, and whether the AV1 path produced it: the
    /// pipeline's image must be pixel for pixel the AV1 path's.
    static func pipelineDecode(_ bytes: [UInt8], box: Int) throws -> (image: VipsImageHandle, av1: VipsImageHandle?) {
        try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .avif)
            let decoded = try StillDecoding.pixels(buffer, header: header, box: (box, box), upscale: false)
            let fast = AVIFAV1Decoder.decode(buffer, boxWidth: box, boxHeight: box,
                                             expectedSize: (header.displayWidth, header.displayHeight))
            return (decoded.image, try fast.map { try ImageDecoder.decode(heic: $0).image })
        }
    }

    /// libvips' own decode (heifload + thumbnail, 8-bit sRGB), the reference for SDR files.
    static func libvipsDecode(_ bytes: [UInt8], box: Int) throws -> VipsImageHandle {
        try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .avif)
            return try ImageDecoder.decode(buffer, header: header, width: box, height: box, allowUpscale: false).image
        }
    }

    @Test(arguments: [4096, 120])
    func eightBitSDRMatchesLibvipsUprightAndSized(_ box: Int) throws {
        let bytes = try Self.bytes(Self.sdr)
        let parsed = HEIFImageItems.primary(in: MemoryBytes(bytes: bytes), codec: .av1)
        let coded = try #require(parsed)
        #expect(coded.codec == .av1 && coded.width == 300 && coded.height == 200)
        #expect(coded.transforms == [.rotate(quarterTurns: 1), .mirror(horizontal: true)])
        #expect(coded.nclx == HEIFCodedImage.NCLX(primaries: 1, transfer: 13, matrix: 6, fullRange: false))

        let decoded = try Self.pipelineDecode(bytes, box: box)
        let av1 = try #require(decoded.av1, "the AV1 path declined the file")
        #expect(try HEIFHEVCTests.meanAbsoluteDifference(decoded.image, av1).allSatisfy { $0 == 0 },
                "the photo source did not use the AV1 path")
        let reference = try Self.libvipsDecode(bytes, box: box)
        let expected = HEIFHEVCDecoder.fitted(width: 200, height: 300, boxWidth: box, boxHeight: box)
        #expect((av1.width, av1.height) == (expected.width, expected.height))
        #expect((reference.width, reference.height) == (expected.width, expected.height))
        guard (av1.width, av1.height) == (reference.width, reference.height) else { return }
        let difference = try HEIFHEVCTests.meanAbsoluteDifference(av1, reference)
        print("AVIF 8-bit SDR box \(box): \(av1.width)×\(av1.height), mean abs diff per channel against libvips \(difference)")
        #expect(difference.allSatisfy { $0 <= HEIFHEVCTests.tolerance }, "\(difference)")
        // Upright: shown white top-left, blue top-right, green bottom-left, red bottom-right.
        let w = av1.width, h = av1.height, inset = max(2, w / 25)
        let corners: [((Int, Int), [Double])] = [
            ((inset, inset), [255, 255, 255]), ((w - 1 - inset, inset), [0, 0, 255]),
            ((inset, h - 1 - inset), [0, 200, 0]), ((w - 1 - inset, h - 1 - inset), [255, 0, 0]),
        ]
        for ((x, y), colour) in corners {
            let mean = try TestImage.mean(av1, around: x, y)
            #expect(zip(mean, colour).allSatisfy { abs($0 - $1) < 60 }, "(\(x), \(y)): \(mean), expected about \(colour)")
        }
    }

    /// libvips 8.14 + libheif 1.15 hand over PQ-coded values as if they were sRGB (flat and
    /// grey); the AV1 path tone-maps them like HDR video posters. The reference is libheif's
    /// own 16-bit decode tone-mapped by libavfilter's zscale + tonemap graph at the same size,
    /// so this checks the AV1 path's decode, matrix, range, scaling and rotation.
    @Test func tenBitPQIsToneMappedLikeLibheifsDecode() throws {
        let bytes = try Self.bytes(Self.hdr)
        let parsed = HEIFImageItems.primary(in: MemoryBytes(bytes: bytes), codec: .av1)
        let coded = try #require(parsed)
        #expect(coded.nclx == HEIFCodedImage.NCLX(primaries: 12, transfer: 16, matrix: 1, fullRange: false))
        #expect(coded.transforms == [.rotate(quarterTurns: 3)])
        let box = 150
        let decoded = try Self.pipelineDecode(bytes, box: box)
        let av1 = try #require(decoded.av1, "the AV1 path declined the file")
        #expect(try HEIFHEVCTests.meanAbsoluteDifference(decoded.image, av1).allSatisfy { $0 == 0 },
                "the photo source did not use the AV1 path")
        #expect((av1.width, av1.height) == (100, 150))

        // Display P3 PQ takes the table tone-map (no libavfilter graph, whose float passes
        // held the largest AVIF's extra memory); the reference below is the filter graph.
        let probe = try LibavFrame.allocated(width: 2, height: 2, format: AV_PIX_FMT_YUV420P10LE)
        probe.pointer.pointee.color_trc = AVCOL_TRC_SMPTE2084
        probe.pointer.pointee.color_primaries = AVCOL_PRI_SMPTE432
        probe.pointer.pointee.colorspace = AVCOL_SPC_BT709
        #expect(HDRToneMapper.curve(for: probe)?.gamut == .displayP3)

        let reference = try Self.libheifToneMapped(bytes, width: av1.width, height: av1.height)
        let difference = try HEIFHEVCTests.meanAbsoluteDifference(av1, reference)
        print("AVIF 10-bit PQ P3: mean abs diff per channel against libheif 16-bit + zscale/tonemap \(difference)")
        #expect(difference.allSatisfy { $0 <= 4 }, "\(difference)")

        // Turned 270° anticlockwise: green top-left, red top-right, white bottom-left.
        let green = try TestImage.mean(av1, around: 5, 5)
        let red = try TestImage.mean(av1, around: 94, 5)
        let white = try TestImage.mean(av1, around: 5, 144)
        #expect(white.allSatisfy { $0 > 200 }, "white corner \(white)")
        #expect(red[0] > 150 && red[1] < 80 && red[2] < 80, "red corner \(red)")
        #expect(green[1] > 100 && green[0] < 80 && green[2] < 80, "green corner \(green)")
        // What libvips alone shows for the same white: PQ code values, a mid grey.
        let flat = try TestImage.mean(try Self.libvipsDecode(bytes, box: box), around: 5, 144)
        #expect(flat.allSatisfy { $0 < 170 }, "libvips' white \(flat)")
    }

    /// An AVIF with alpha (an `auxl` alpha item) is left to libvips, its flattened copy is
    /// not; both decode through the photo source.
    @Test func alphaAVIFsFallBackToLibvips() throws {
        let png = Array(try Data(contentsOf: TestSupport.sample("alpha-disc.png")))
        for alpha in [true, false] {
            let avif = try png.withUnsafeBytes { buffer -> [UInt8] in
                let load = try VipsOperationCall("pngload_buffer")
                try load.set("buffer", .borrowedBlob(buffer))
                try load.build()
                let image = alpha ? try load.outputImage() : try ImageDecoder.flatten(try load.outputImage())
                let save = try VipsOperationCall("heifsave_buffer")
                try save.set("in", .image(image))
                try save.set("compression", .nick("av1"))
                try save.build()
                return try save.outputBytes()
            }
            let fast = avif.withUnsafeBytes { AVIFAV1Decoder.decode($0, boxWidth: 100, boxHeight: 100) }
            #expect((fast != nil) == !alpha, "alpha \(alpha)")
            let decoded = try avif.withUnsafeBytes { buffer in
                let header = try ImageHeaderReader.read(buffer, format: .avif)
                return try StillDecoding.pixels(buffer, header: header, box: (100, 100), upscale: false)
            }
            #expect(decoded.image.width > 0 && decoded.image.width <= 100)
        }
        // HEICs are not AV1.
        let heic = try Self.bytes("photo.heic")
        #expect(heic.withUnsafeBytes { AVIFAV1Decoder.decode($0, boxWidth: 100, boxHeight: 100) } == nil)
    }

    /// Truncations and byte changes (fixed seed): the AV1 path decodes or returns nil, the
    /// whole decode returns an image or throws `VipsError`; nothing traps.
    @Test(arguments: [sdr, hdr])
    func mutatedBytesNeverCrash(_ name: String) throws {
        let original = try Self.bytes(name)
        var random = SplitMix64(seed: 0x4156_4946 ^ UInt64(name.count))
        var fast = 0, errors = 0
        for round in 0..<80 {
            var bytes = original
            if round % 8 == 0 {
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            } else {
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] = round % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : bytes[at] ^ 0xFF
                }
            }
            if bytes.withUnsafeBytes({ AVIFAV1Decoder.decode($0, boxWidth: 100, boxHeight: 100) }) != nil { fast += 1 }
            do {
                _ = try bytes.withUnsafeBytes { buffer throws(VipsError) in
                    let header = try ImageHeaderReader.read(buffer, format: .avif)
                    return try StillDecoding.pixels(buffer, header: header, box: (100, 100), upscale: false)
                }
            } catch {
                errors += 1
            }
        }
        print("AVIF mutations of \(name): \(fast) AV1-path decodes, \(errors) typed errors")
    }

    @Test func sequenceHeaderDetection() {
        // Temporal delimiter (type 2, has size, size 0) then a sequence header (type 1).
        #expect(AV1OBUs.startsWithSequenceHeader([0x12, 0x00, 0x0A, 0x0B, 0, 0, 0]))
        #expect(AV1OBUs.startsWithSequenceHeader([0x0A, 0x01, 0x00]))
        // A frame OBU (type 6) first: no sequence header.
        #expect(!AV1OBUs.startsWithSequenceHeader([0x32, 0x01, 0x00]))
        // A delimiter whose size runs past the end.
        #expect(!AV1OBUs.startsWithSequenceHeader([0x12, 0x7F]))
        #expect(!AV1OBUs.startsWithSequenceHeader([]))
    }

    /// libheif's decode as libvips hands it over (16-bit RGB holding PQ code values, already
    /// upright), tone-mapped to `width`×`height` by libavfilter's zscale + tonemap graph.
    static func libheifToneMapped(_ bytes: [UInt8], width: Int, height: Int) throws -> VipsImageHandle {
        let sixteen = try bytes.withUnsafeBytes { buffer in
            let load = try VipsOperationCall("heifload_buffer")
            try load.set("buffer", .borrowedBlob(buffer))
            try load.build()
            return try load.outputImage().materialised()
        }
        #expect(sixteen.format == VIPS_FORMAT_USHORT && sixteen.bands == 3)
        var size = 0
        let raw = try #require(vips_image_write_to_memory(sixteen.pointer, &size))
        defer { g_free(raw) }
        let w = sixteen.width, h = sixteen.height
        try #require(size == w * h * 6)
        let frame = try LibavFrame.allocated(width: w, height: h, format: AV_PIX_FMT_GBRP16LE)
        let planes = frame.planes
        let samples = raw.assumingMemoryBound(to: UInt16.self)
        // gbrp16le: plane 0 green, 1 blue, 2 red.
        for (plane, channel) in [(0, 1), (1, 2), (2, 0)] {
            let base = try #require(planes.data[plane])
            let row = Int(planes.strides[plane])
            for y in 0..<h {
                let target = UnsafeMutableRawPointer(mutating: base + y * row).assumingMemoryBound(to: UInt16.self)
                for x in 0..<w { target[x] = samples[(y * w + x) * 3 + channel] }
            }
        }
        frame.pointer.pointee.color_trc = AVCOL_TRC_SMPTE2084
        frame.pointer.pointee.color_primaries = AVCOL_PRI_SMPTE432
        frame.pointer.pointee.colorspace = AVCOL_SPC_RGB
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        let rgb = try HDRFilterGraphToneMapper.toneMap(frame, width: width, height: height)
        return try VipsImageHandle.copyingPackedRGB(rgb, width: width, height: height)
    }
}
