import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaMetadata

/// The one JPEG segment walk (`JPEGSegments`) on real files: the markers and payload sizes
/// `exiftool -v3` lists (its "JPEG APP1 (454 bytes)" is the payload after the length field),
/// and the edge cases made by editing those files' bytes: fill bytes, markers without a length,
/// a cut segment, a length under 2, stray bytes.
@Suite struct JPEGSegmentsTests {
    /// Marker names with payload sizes (nil for SOS and EOI, which exiftool lists bare), walking
    /// through every scan's entropy-coded data the way `JPEGCodedLayout` does.
    static func walk(_ bytes: [UInt8]) -> (markers: [String], sizes: [Int?], stop: JPEGSegments<MemoryBytes>.Stop?) {
        var segments = JPEGSegments(MemoryBytes(bytes: bytes))
        var markers: [String] = [], sizes: [Int?] = []
        while let segment = segments.next() {
            markers.append(JPEGSegment.name(of: segment.marker))
            sizes.append(segment.marker == 0xDA || segment.marker == 0xD9 ? nil : segment.payload.count)
            guard segment.marker == 0xDA else { continue }
            guard let scanEnd = bytes.withUnsafeBytes({ JPEGSegment.entropyCodedEnd(in: $0, from: segment.end) })
            else { break }
            segments.resume(at: scanEnd)
        }
        return (markers, sizes, segments.stop)
    }

    /// The first segments, up to the first SOS (the walk stops there unless resumed).
    static func headers(_ bytes: [UInt8], limit: Int = .max) -> ([JPEGSegment], JPEGSegments<MemoryBytes>.Stop?) {
        var segments = JPEGSegments(MemoryBytes(bytes: bytes), limit: limit)
        var found: [JPEGSegment] = []
        while let segment = segments.next() { found.append(segment) }
        return (found, segments.stop)
    }

    static func inserting(_ inserted: [UInt8], into bytes: [UInt8], at offset: Int) -> [UInt8] {
        Array(bytes[..<offset]) + inserted + Array(bytes[offset...])
    }

    /// `exiftool -v3 Samples/orientation-6-gps-p3.jpg`: EXIF in APP1, the Display P3 profile in
    /// APP2, then the tables, a baseline frame, one scan and EOI at the last two bytes.
    @Test func aPhotoWithExifAndAnICCProfileWalksAsExiftoolListsIt() throws {
        let bytes = try MediaSamples.bytes("orientation-6-gps-p3.jpg")
        let walk = Self.walk(bytes)
        #expect(walk.markers == ["APP1", "APP2", "DQT", "DQT", "SOF0", "DHT", "DHT", "DHT", "DHT", "SOS", "EOI"])
        #expect(walk.sizes == [454, 750, 65, 65, 15, 29, 179, 29, 179, nil, nil])
        #expect(walk.stop == .endOfImage)

        let (segments, stop) = Self.headers(bytes)
        #expect(stop == .scan)
        #expect(segments.first?.offset == 2)
        let app1 = try #require(segments.first), app2 = segments[1]
        #expect(bytes[app1.payload].starts(with: Array("Exif\0\0".utf8)))
        #expect(MetadataBlocks.isTIFFHeader(bytes[app1.payload].dropFirst(6)))
        #expect(bytes[app2.payload].starts(with: Array("ICC_PROFILE\0".utf8)))
        #expect(app2.offset == app1.end)
        let sos = try #require(segments.last)
        #expect(bytes.withUnsafeBytes { JPEGSegment.entropyCodedEnd(in: $0, from: sos.end) } == bytes.count - 2)
    }

    /// `exiftool -v3 Samples/jpeg-decode/progressive.jpg`: ten scans, most with their own DHT
    /// between them, which only a walk resumed after each scan's entropy-coded data sees.
    @Test func aProgressiveJPEGHasItsScansAndTablesBetweenThem() throws {
        let walk = Self.walk(try MediaSamples.bytes("jpeg-decode/progressive.jpg"))
        #expect(walk.markers == ["DQT", "DQT", "SOF2", "DHT", "DHT", "SOS", "DHT", "SOS", "DHT", "SOS", "DHT", "SOS",
                                 "DHT", "SOS", "DHT", "SOS", "SOS", "DHT", "SOS", "DHT", "SOS", "DHT", "SOS", "EOI"])
        #expect(walk.sizes.compactMap { $0 } == [65, 65, 15, 26, 25, 37, 42, 40, 44, 38, 35, 36, 38])
        #expect(walk.stop == .endOfImage)
    }

    /// `Samples/truncated.jpg` ends inside its scan: exiftool lists up to SOS and warns; the
    /// walk gets there too, and the entropy-coded data has no end.
    @Test func aTruncatedJPEGWalksToItsScanWhoseDataHasNoEnd() throws {
        let bytes = try MediaSamples.bytes("truncated.jpg")
        let walk = Self.walk(bytes)
        #expect(walk.markers == ["APP1", "DQT", "DQT", "SOF0", "DHT", "DHT", "DHT", "DHT", "SOS"])
        #expect(walk.sizes.compactMap { $0 } == [186, 65, 65, 15, 29, 179, 29, 179])
        #expect(walk.stop == .scan)
    }

    /// Fill bytes before a marker (three, and a run longer than the 4 KB the walk reads at a
    /// time) change nothing but where the marker is: its last 0xFF.
    @Test func fillBytesArePassedOver() throws {
        let bytes = try MediaSamples.bytes("orientation-6-gps-p3.jpg")
        let (original, _) = Self.headers(bytes)
        let dqt = original[2]
        for run in [3, 5_000] {
            let filled = Self.inserting([UInt8](repeating: 0xFF, count: run), into: bytes, at: dqt.offset)
            let (segments, stop) = Self.headers(filled)
            #expect(stop == .scan)
            #expect(segments.map(\.marker) == original.map(\.marker))
            #expect(segments[2].offset == dqt.offset + run)
            #expect(Self.walk(filled).markers == Self.walk(bytes).markers)
        }
        // A file that ends in fill bytes is cut.
        let (_, stop) = Self.headers(Array(bytes[..<dqt.offset]) + [0xFF, 0xFF, 0xFF])
        #expect(stop == .cut(offset: dqt.offset))
    }

    /// RSTn, TEM and a second SOI have no length: they come out with an empty payload and the
    /// walk goes on to the next marker (exiftool reads the EXIF of such a file too).
    @Test func markersWithoutALengthStandAlone() throws {
        let bytes = try MediaSamples.bytes("orientation-6-gps-p3.jpg")
        let withMarkers = Self.inserting([0xFF, 0x01, 0xFF, 0xD0, 0xFF, 0xD8], into: bytes, at: 2)
        let (segments, stop) = Self.headers(withMarkers)
        #expect(stop == .scan)
        #expect(segments.prefix(4).map { JPEGSegment.name(of: $0.marker) } == ["TEM", "RST0", "SOI", "APP1"])
        #expect(segments.prefix(3).allSatisfy { $0.payload.isEmpty && $0.end == $0.offset + 2 })
        #expect(segments[3].offset == 8)
    }

    /// A file cut inside APP2's payload: the walk hands out APP1 and reports the overrun with
    /// APP2's declared length; cut inside APP2's length field, it reports a cut.
    @Test func aSegmentRunningPastTheEndStopsTheWalk() throws {
        let bytes = try MediaSamples.bytes("orientation-6-gps-p3.jpg")
        let app2 = Self.headers(bytes).0[1]
        let (inPayload, overrun) = Self.headers(Array(bytes[..<(app2.offset + 100)]))
        #expect(inPayload.map(\.marker) == [0xE1])
        #expect(overrun == .overrun(marker: 0xE2, offset: app2.offset, declared: 752))
        for cut in [app2.offset + 1, app2.offset + 3] {
            let (segments, stop) = Self.headers(Array(bytes[..<cut]))
            #expect(segments.map(\.marker) == [0xE1])
            #expect(stop == .cut(offset: app2.offset))
        }
    }

    /// A DQT length of 1, a stray byte where a marker belongs, a file that is not a JPEG, a
    /// segment limit.
    @Test func badLengthsStrayBytesAndLimitsEndTheWalk() throws {
        let bytes = try MediaSamples.bytes("orientation-6-gps-p3.jpg")
        let dqt = Self.headers(bytes).0[2]
        var short = bytes
        short[dqt.offset + 2] = 0
        short[dqt.offset + 3] = 1
        #expect(Self.headers(short).1 == .badLength(marker: 0xDB, offset: dqt.offset, declared: 1))
        var stray = bytes
        stray[dqt.offset] = 0x00
        #expect(Self.headers(stray).1 == .notAMarker(offset: dqt.offset))
        #expect(Self.headers(Array(bytes.dropFirst())).1 == .notJPEG)
        let (limited, stop) = Self.headers(bytes, limit: 3)
        #expect(limited.count == 3 && stop == .limit)
    }

    // The callers' edge cases the shared walk changed (each failed with the old loop).

    /// A camera's preview with a TEM marker before its frame: the raw-preview walk read TEM's
    /// next two bytes as a length and jumped past the frame, so the preview was missed.
    @Test func aRawPreviewFindsItsFrameAfterAMarkerWithoutALength() throws {
        let bytes = Self.inserting([0xFF, 0x01], into: try MediaSamples.bytes("orientation-6-gps-p3.jpg"), at: 2)
        let frame = try #require(RawPreview.jpegFrame(in: MemoryBytes(bytes: bytes), at: 0, length: bytes.count))
        #expect(frame.width == 400 && frame.height == 600)
    }

    /// 100,000 fill bytes before a segment that runs past the end: the bounds gate counted each
    /// fill byte as a segment, gave up at 100,000 and let the overrun through to the decoder.
    @Test func theBoundsGateSeesAnOverrunAfterManyFillBytes() throws {
        let bytes = try MediaSamples.bytes("orientation-6-gps-p3.jpg")
        let app2 = Self.headers(bytes).0[1]
        let cut = Self.inserting([UInt8](repeating: 0xFF, count: 100_000), into: Array(bytes[..<(app2.offset + 100)]),
                                 at: app2.offset)
        let overrun = try #require(ContainerBounds.check(MemoryBytes(bytes: cut), format: .jpeg))
        #expect(overrun.structure == "segment APP2" && overrun.offset == app2.offset + 100_000 && overrun.declared == 752)
    }

    /// A second SOI right after the first: EXIF was looked for in a "segment" whose length was
    /// the next marker's bytes, so none was found; exiftool reads it, and now so does the walk.
    @Test func exifAfterASecondSOIIsFound() throws {
        let bytes = try MediaSamples.bytes("orientation-6-gps-p3.jpg")
        let doubled = Self.inserting([0xFF, 0xD8], into: bytes, at: 2)
        let exif = JPEGMetadataSegments.blocks(in: MemoryBytes(bytes: doubled)).exif
        #expect(exif != nil)
        #expect(exif == JPEGMetadataSegments.blocks(in: MemoryBytes(bytes: bytes)).exif)
    }
}
