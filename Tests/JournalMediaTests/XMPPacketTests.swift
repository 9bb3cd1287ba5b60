import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaMetadata

/// XMP read as XML: the six packets of Samples/xmp/packets (one date each, in the RDF forms
/// writers use) give exiftool's reading, and hostile packets (entity expansion, external
/// entities, huge or deeply nested input) give no date, quickly, without a crash.
@Suite struct XMPPacketTests {
    static func packet(_ path: String) throws -> XMPPacket {
        XMPPacket(Array(try Data(contentsOf: TestSupport.sample("xmp/" + path))))
    }

    /// The date `CaptureDateResolver` takes from a packet alone, as `inspect` prints it.
    static func date(_ packet: XMPPacket) -> CaptureDate? {
        var resolver = CaptureDateResolver(fileName: "no-date-in-name", modified: nil)
        resolver.xmp = packet
        return resolver.resolve()
    }

    /// (packet, local time, offset, source): exiftool -G1 -time:all on each packet.
    static let expected: [(String, String, String?, String)] = [
        ("attribute.xmp", "2021-05-06T07:08:09", "+02:00", "xmp.exif:DateTimeOriginal"),
        ("element-xap.xmp", "2012-03-04T05:06:07", "+00:00", "xmp.xmp:CreateDate"),
        // exif's namespace on the prefix `e:`; `exif:` bound elsewhere is not EXIF's.
        ("other-prefix.xmp", "2020-10-11T12:13:14.500", "-04:00", "xmp.exif:DateTimeOriginal"),
        ("spaces-around-equals.xmp", "2018-07-08T09:10:11", "+09:00", "xmp.exif:DateTimeOriginal"),
        // The first item of an rdf:Seq, white space around it trimmed.
        ("element-seq.xmp", "2017-02-03T04:05:06", "+01:00", "xmp.exif:DateTimeOriginal"),
        // A comment with an earlier date in both forms comes first and is not a property.
        ("comment-first.xmp", "2016-06-07T08:09:10", "-07:00", "xmp.exif:DateTimeOriginal"),
    ]

    @Test(arguments: expected.indices)
    func packetDate(_ index: Int) throws {
        let (file, local, offset, source) = Self.expected[index]
        let date = try #require(Self.date(try Self.packet("packets/" + file)), "\(file)")
        #expect(date.local?.description == local, "\(file)")
        #expect(date.offsetText == offset, "\(file)")
        #expect(date.source == source, "\(file)")
    }

    /// Names are namespace URI + local name: the decoy `exif:` prefix's value is kept under
    /// its own namespace, not EXIF's.
    @Test func prefixesPlayNoPart() throws {
        let packet = try Self.packet("packets/other-prefix.xmp")
        #expect(packet[.dateTimeOriginal] == "2020-10-11T12:13:14.50-04:00")
        #expect(packet[XMPName("http://example.com/not-exif/", "DateTimeOriginal")] == "1999-01-01T00:00:00")
    }

    /// A document type declaration (where entities are declared) refuses the whole packet:
    /// no billion-laughs expansion, no file or network read for an external entity.
    @Test(arguments: ["billion-laughs.xmp", "external-entity.xmp"])
    func entityDeclarationsAreRefused(_ file: String) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let packet = try Self.packet("hostile/" + file)
        #expect(clock.now - start < .seconds(1))
        #expect(packet.values.isEmpty)
        #expect(Self.date(packet) == nil)
    }

    /// Larger than the bound: not parsed at all.
    @Test func oversizedPacketIsNotRead() {
        var bytes = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2020-01-01T00:00:00"/>"#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: XMPPacket.maximumBytes)
        #expect(XMPPacket(bytes).values.isEmpty)
    }

    /// Ten thousand nested elements (libxml2 stops at its depth limit) and a megabyte of
    /// comments before the value: bounded time, and the value after the comments is read.
    @Test func deepNestingAndLongCommentsStayBounded() {
        let clock = ContinuousClock()
        let start = clock.now
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        #expect(XMPPacket(Array(deep.utf8)).values.isEmpty)
        let comments = String(repeating: "<!-- exif:DateTimeOriginal=\"1990-01-01T00:00:00\" -->\n", count: 20_000)
        let text = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + comments + #"<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2020-02-02T02:02:02"/></rdf:RDF></x:xmpmeta>"#
        #expect(XMPPacket(Array(text.utf8))[.dateTimeOriginal] == "2020-02-02T02:02:02")
        #expect(clock.now - start < .seconds(2))
    }

    /// Malformed XML keeps what was read before the damage; garbage gives nothing.
    @Test func malformedInputKeepsWhatCameBefore() {
        let truncated = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreateDate="2011-11-11T11:11:11"><xmp:Rating>5<"#
        #expect(XMPPacket(Array(truncated.utf8))[.createDate] == "2011-11-11T11:11:11")
        #expect(XMPPacket([0xFF, 0xFE, 0x00, 0x3C, 0x00]).values.isEmpty)
        #expect(XMPPacket([]).values.isEmpty)
    }
}
