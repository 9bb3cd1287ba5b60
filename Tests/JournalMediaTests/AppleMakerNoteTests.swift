import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The Live Photo identifier of a still: our Apple MakerNote parser behind libexif's raw
/// MakerNote entry, read the way the pipeline reads it (`HeaderMetadata`, `ExifBlock`), on
/// the samples (whose MakerNotes Tests/SampleMaker/live_exif.py wrote byte by byte;
/// `exiftool -MediaGroupUUID` reads the same identifiers) and on garbage.
@Suite struct AppleMakerNoteTests {
    /// The identifier the pipeline reads from a whole file (container walk, libexif, MakerNote).
    static func identifier(ofFile bytes: [UInt8], name: String) -> String? {
        guard let format = FormatSniffer.sniff(bytes) else { return nil }
        return HeaderMetadata.read(MemoryBytes(bytes: bytes), format: format, fileName: name,
                                   modified: nil).contentIdentifier
    }

    /// The pipeline's reading of an EXIF payload ("Exif\0\0" + TIFF, or bare TIFF).
    static func exifBlock(segment: [UInt8]) -> ExifBlock? {
        MetadataBlocks.tiff(fromExifPayload: segment).flatMap(ExifBlock.init(tiff:))
    }

    static func identifier(exifSegment: [UInt8]) -> String? {
        exifBlock(segment: exifSegment)?.makerNote().flatMap(AppleMakerNote.parse)?.contentIdentifier
    }

    /// The EXIF block (TIFF) of a JPEG, found the way the pipeline finds it.
    static func exifSegment(ofJPEG bytes: [UInt8]) -> [UInt8]? {
        JPEGMetadataSegments.blocks(in: MemoryBytes(bytes: bytes)).exif
    }

    static func realMakerNote() throws -> [UInt8] {
        let exif = try #require(exifSegment(ofJPEG: MediaSamples.bytes("live/IMG_0001.JPG")))
        return try #require(Self.exifBlock(segment: exif)?.makerNote())
    }

    @Test func stillsCarryTheIdentifiersExiftoolReads() throws {
        let expected: [String: String?] = [
            "live/IMG_0001.JPG": MediaSamples.livePhotoIdentifier,
            "live/IMG_0002.JPG": nil,
            "live/IMG_0003.JPG": MediaSamples.mismatchedStillIdentifier,
        ]
        for (name, identifier) in expected {
            let exif = try #require(Self.exifSegment(ofJPEG: MediaSamples.bytes(name)), "\(name) has EXIF")
            #expect(Self.identifier(exifSegment: exif) == identifier, "\(name)")
            let bytes = try MediaSamples.bytes(name)
            #expect(Self.identifier(ofFile: bytes, name: name) == identifier, "\(name) whole file")
        }
    }

    @Test func otherMakerNoteFields() throws {
        let note = try #require(AppleMakerNote.parse(Self.realMakerNote()))
        #expect(note == AppleMakerNote(version: 14, burstIdentifier: nil,
                                       contentIdentifier: MediaSamples.livePhotoIdentifier, livePhotoVideoIndex: 8192))
    }

    @Test func imagesWithoutAppleMakerNotesHaveNoIdentifier() throws {
        for name in ["orientation-6-gps-p3.jpg", "photo.heic", "cmyk.jpg"] {
            let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
            #expect(Self.identifier(ofFile: bytes, name: name) == nil, "\(name)")
        }
        #expect(Self.identifier(exifSegment: []) == nil)
        #expect(Self.identifier(exifSegment: Array("Exif".utf8) + [0, 0]) == nil)
    }

    @Test func littleEndianMakerNoteIsReadToo() {
        // Built byte by byte: header, "II", one ASCII entry whose value sits after the table.
        let uuid = Array("AB12CD34-0000-4000-8000-000000000001".utf8) + [0]
        var note = Array("Apple iOS".utf8) + [0, 0x00, 0x01] + Array("II".utf8)
        note += [1, 0]                                            // one entry
        let valueOffset = 16 + 12 + 4
        note += [0x11, 0x00, 0x02, 0x00]                          // tag 0x0011, ASCII
        note += [UInt8(uuid.count), 0, 0, 0, UInt8(valueOffset), 0, 0, 0]
        note += [0, 0, 0, 0] + uuid
        #expect(AppleMakerNote.parse(note)?.contentIdentifier == "AB12CD34-0000-4000-8000-000000000001")
    }

    @Test func everyTruncationIsNilOrComplete() throws {
        let note = try Self.realMakerNote()
        let entries = Int(note[14]) << 8 | Int(note[15])
        let tableEnd = 16 + entries * 12
        var identified = 0
        for length in 0..<note.count {
            let parsed = AppleMakerNote.parse(Array(note.prefix(length)))
            if length < tableEnd {
                #expect(parsed == nil, "cut at \(length) inside the entry table")
            } else {
                let identifier = try #require(parsed, "cut at \(length) keeps the table").contentIdentifier
                #expect(identifier == nil || identifier == MediaSamples.livePhotoIdentifier)
                if identifier != nil { identified += 1 }
            }
        }
        #expect(identified > 0, "cuts that keep the whole value still read it")
        #expect(AppleMakerNote.parse(note)?.contentIdentifier == MediaSamples.livePhotoIdentifier)
    }

    /// Random byte changes, insertions, deletions and splices of the real MakerNote and of the
    /// whole EXIF block (through libexif): never a crash, identifiers only printable ASCII.
    @Test func mutatedMakerNotesNeverCrash() throws {
        var random = SplitMix64(seed: 0x4A4D_4D4E)
        let note = try Self.realMakerNote()
        let exif = try #require(Self.exifSegment(ofJPEG: MediaSamples.bytes("live/IMG_0001.JPG")))
        var parsedCount = 0
        for round in 0..<400 {
            let mutatedNote = Self.mutate(note, &random)
            if let parsed = AppleMakerNote.parse(mutatedNote) {
                parsedCount += 1
                if let id = parsed.contentIdentifier {
                    #expect(id.utf8.allSatisfy { (0x20...0x7E).contains($0) } && id.count <= 256, "round \(round)")
                }
            }
            let mutatedExif = Self.mutate(exif, &random)
            if let id = Self.identifier(exifSegment: mutatedExif) {
                #expect(id.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "round \(round)")
            }
        }
        // Pure noise, and noise behind a valid header.
        for _ in 0..<200 {
            let noise = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = AppleMakerNote.parse(noise)
            _ = AppleMakerNote.parse(Array(note.prefix(16)) + noise)
            _ = Self.identifier(exifSegment: Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 0x2A] + noise)
        }
        #expect(parsedCount > 50, "many mutations keep the structure and are still parsed (\(parsedCount))")
    }

    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !out.isEmpty else { break }
            let at = Int.random(in: 0..<out.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: out[at] = UInt8.random(in: 0...255, using: &random)
            case 1: out[at] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 2: out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...16, using: &random)))
            case 3: out.insert(contentsOf: (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
            default: out = Array(out.prefix(at))
            }
        }
        return out
    }
}

/// A small seedable generator so the mutations are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
