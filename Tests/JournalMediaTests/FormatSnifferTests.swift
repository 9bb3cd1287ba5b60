import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

@Suite struct FormatSnifferTests {
    @Test func samplesAreRecognisedByContentNotName() throws {
        let expected: [String: SourceFormat?] = [
            "orientation-6-gps-p3.jpg": .jpeg, "cmyk.jpg": .jpeg, "photo.heic": .heic,
            "adobe-rgb-16bit.png": .png, "alpha-disc.png": .png, "icon.svg": .svg, "icon.pdf": .pdf,
            "scene.webp": .webp, "scene.gif": .gif, "not-an-image.jpg": nil, "empty.png": nil,
        ]
        for (name, format) in expected {
            let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
            #expect(FormatSniffer.sniff(bytes) == format, "\(name)")
        }
    }

    @Test func isoBrandsSeparateImagesFromVideos() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            let size = 8 + body.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + body + [UInt8](repeating: 0, count: 16)
        }
        #expect(FormatSniffer.sniff(ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(FormatSniffer.sniff(ftyp("mif1", ["avif", "miaf"])) == .avif)
        #expect(FormatSniffer.sniff(ftyp("avif", ["mif1"])) == .avif)
        #expect(FormatSniffer.sniff(ftyp("isom", ["iso2", "mp41"])) == .mp4)
        #expect(FormatSniffer.sniff(ftyp("qt  ", ["qt  "])) == .mov)
        #expect(FormatSniffer.sniff(ftyp("M4A ", ["M4A ", "mp42", "isom"])) == .m4a)
        #expect(FormatSniffer.sniff(ftyp("3gp4", ["isom", "3gp4"])) == .threeGP)
        #expect(FormatSniffer.sniff(ftyp("crx ", ["crx ", "isom"])) == nil)  // Canon CR3 raw
        #expect(FormatSniffer.sniff(ftyp("jp2 ", ["jp2 "])) == nil)  // JPEG 2000
    }

    @Test func otherMagic() {
        #expect(FormatSniffer.sniff(Array("II*\0rest".utf8)) == .tiff)
        #expect(FormatSniffer.sniff([0x4D, 0x4D, 0x00, 0x2A, 1, 2]) == .tiff)
        #expect(FormatSniffer.sniff(Array("\u{FEFF}  <?xml version=\"1.0\"?>\n<svg xmlns=\"x\"/>".utf8)) == .svg)
        #expect(FormatSniffer.sniff(Array("<html><body>no</body></html>".utf8)) == nil)
        #expect(FormatSniffer.sniff([0xFF, 0xD8]) == nil)
    }
}
