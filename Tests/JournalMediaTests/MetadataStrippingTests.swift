import CExif
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// No rendition carries EXIF, GPS, XMP, IPTC or ICC data, in any output format.
@Suite struct MetadataStrippingTests {
    /// libexif's reading of a JPEG or a bare EXIF block: entries per IFD.
    static func exifEntries(_ bytes: [UInt8]) -> (total: Int, gps: Int) {
        guard !bytes.isEmpty,
              let data = bytes.withUnsafeBufferPointer({ exif_data_new_from_data($0.baseAddress, UInt32($0.count)) })
        else { return (0, 0) }
        defer { exif_data_unref(data) }
        let ifd = data.pointee.ifd
        let counts = [ifd.0, ifd.1, ifd.2, ifd.3, ifd.4].map { Int($0?.pointee.count ?? 0) }
        return (counts.reduce(0, +), counts[Int(EXIF_IFD_GPS.rawValue)])
    }

    /// The payload of a WebP file's EXIF chunk, or the bytes themselves for other formats,
    /// so libexif reads the EXIF block wherever the container keeps it.
    static func exifCarrier(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > 12, String(decoding: bytes[8..<12], as: UTF8.self) == "WEBP" else { return bytes }
        var i = 12
        while i + 8 <= bytes.count {
            let length = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            if String(decoding: bytes[i..<i + 4], as: UTF8.self) == "EXIF" {
                return Array(bytes[(i + 8)..<min(bytes.count, i + 8 + length)])
            }
            i += 8 + length + (length & 1)
        }
        return []
    }

    /// Names of the metadata blocks a JPEG, PNG or WebP file carries.
    static func metadataBlocks(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        func text(_ start: Int, _ length: Int) -> String {
            guard start >= 0, start + length <= bytes.count else { return "" }
            return String(decoding: bytes[start..<start + length], as: UTF8.self)
        }
        if bytes.starts(with: [0xFF, 0xD8]) {
            var i = 2
            while i + 4 <= bytes.count, bytes[i] == 0xFF {
                let marker = bytes[i + 1]
                if marker == 0xDA { break }
                let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                if marker == 0xE1 && text(i + 4, 4) == "Exif" { found.append("EXIF") }
                if marker == 0xE1 && text(i + 4, 28).hasPrefix("http://ns.adobe.com/xap") { found.append("XMP") }
                if marker == 0xE2 && text(i + 4, 11) == "ICC_PROFILE" { found.append("ICC") }
                if marker == 0xED { found.append("IPTC") }
                i += 2 + length
            }
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            var i = 8
            while i + 8 <= bytes.count {
                let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                let type = text(i + 4, 4)
                if ["eXIf", "iCCP", "tEXt", "iTXt", "zTXt"].contains(type) { found.append(type) }
                i += 12 + length
            }
        } else if text(0, 4) == "RIFF" && text(8, 4) == "WEBP" {
            var i = 12
            while i + 8 <= bytes.count {
                let type = text(i, 4)
                let length = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
                if ["EXIF", "XMP ", "ICCP"].contains(type) { found.append(type) }
                i += 8 + length + (length & 1)
            }
        }
        return found
    }

    @Test func theSourceReallyHasGPSAndEXIF() throws {
        let source = Array(try Data(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg")))
        let entries = Self.exifEntries(source)
        #expect(entries.gps >= 4, "the sample carries GPS, so the checks below can fail")
        #expect(Self.metadataBlocks(source).contains("EXIF"))
        #expect(Self.metadataBlocks(source).contains("ICC"))
    }

    @Test func libexifReadsAWebPExifChunkSoTheCheckCanFail() throws {
        // libvips 8.14 writes an EXIF chunk into WebP output; before our remover runs, the
        // raw encoder output must show it, proving the WebP checks below are not vacuous.
        let webp = try OrientationTests.encodeWebPKeepingMetadata(TestSupport.sample("orientation-6-gps-p3.jpg"))
        #expect(Self.metadataBlocks(webp).contains("EXIF"))
        #expect(Self.exifEntries(Self.exifCarrier(webp)).gps >= 4)
        let cleaned = WebPMetadataRemover.removingMetadata(webp)
        #expect(Self.metadataBlocks(cleaned).isEmpty)
        #expect(try TestImage(cleaned).width == 400, "the cleaned file still decodes")
    }

    @Test func noRenditionCarriesMetadata() throws {
        // Every output format: WebP thumbnail, JPEG fallback, PNG fallback (transparent source).
        let specs = Defaults.renditions + [RenditionSpec(role: "png", format: .png, width: 300)]
        let processor = AssetProcessor(options: ProcessingOptions(renditions: specs))
        for name in ["orientation-6-gps-p3.jpg", "photo.heic", "adobe-rgb-16bit.png", "cmyk.jpg", "alpha-disc.png"] {
            let result = processor.processBlocking(fileAt: TestSupport.sample(name))
            #expect(result.renditions.count == 3, "\(name)")
            for rendition in result.renditions {
                let blocks = Self.metadataBlocks(rendition.data)
                #expect(blocks.isEmpty, "\(name) \(rendition.role) carries \(blocks)")
                #expect(Self.exifEntries(Self.exifCarrier(rendition.data)).total == 0, "\(name) \(rendition.role): libexif finds EXIF")
                if rendition.format == .webp {
                    #expect(!String(decoding: rendition.data, as: UTF8.self).contains("Exif"))
                }
            }
        }
    }
}
