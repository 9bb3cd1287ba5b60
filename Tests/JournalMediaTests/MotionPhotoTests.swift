import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Android motion photos (issue 17): a still with an MP4 inside becomes one `livePhoto`
/// entry, the still's renditions from the JPEG and a `motionPoster` from the embedded video,
/// read through a window onto the file. Sample: Samples/video-motion-photo.jpg (see
/// Tests/SampleMaker/make-video-container-samples.sh): a 240×180 upright scene with a
/// 192×144 H.264 video of the scene turned upside down appended, XMP by exiftool.
@Suite struct MotionPhotoTests {
    @Test func motionPhotoIsALivePhotoWithTheEmbeddedVideosPoster() throws {
        let name = "video-motion-photo.jpg"
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample(name), displayName: name)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.kind == .livePhoto && result.mediaType == "image/jpeg")
        let record = try #require(result.livePhoto)
        #expect(record.pairedBy == .embedded && record.motionSource == "\(name)#motion")
        #expect(record.motionError == nil && record.motionMediaType == "video/mp4")
        // The video is the file's tail: its bytes and digest are exactly the appended MP4's.
        let bytes = try MediaSamples.bytes(name)
        let start = try #require(Self.firstBox("ftyp", in: bytes))
        #expect(record.motionBytes == bytes.count - start)
        #expect(record.motionSha256 == ContentDigest.sha256(Array(bytes[start...])))
        #expect(result.video?.codec == "h264" && result.video?.durationSeconds == 1)
        #expect(result.captureDate?.source == "exif.DateTimeOriginal", "the still's date")

        // Still renditions: upright at 240×180. Motion poster: the embedded clip (upside down).
        let thumbnail = try #require(result.renditions.first { $0.role == "thumbnail" })
        #expect(thumbnail.width == 240 && thumbnail.height == 180)
        try expectUprightMarkers(TestImage(thumbnail.data), tolerance: 40)
        let poster = try #require(result.renditions.first { $0.role == AssetProcessor.motionPosterRole })
        #expect(poster.width == 192 && poster.height == 144)
        let turned = try TestImage(poster.data)
        let inset = 6
        #expect(colour(try turned.mean(around: turned.width - 1 - inset, turned.height - 1 - inset, size: 5),
                       isNear: Marker.red, tolerance: 45), "red marker bottom-right in the upside-down clip")
        #expect(colour(try turned.mean(around: inset, inset, size: 5), isNear: Marker.white, tolerance: 45))
    }

    /// In a batch: one entry (no separate movie), and a re-run reuses it while the file is
    /// unchanged (the still's digest covers the embedded video).
    @Test func batchWritesTheMotionPosterAndReusesTheEntry() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["video-motion-photo.jpg"], to: input)
        let output = root.appendingPathComponent("out")
        let first = try await Batch(inputs: [input], output: output, jobs: 1).run()
        #expect(first.assets.count == 1 && first.summary.succeeded == 1)
        let entry = try #require(first.assets.first)
        #expect(entry.kind == .livePhoto && entry.livePhoto?.pairedBy == .embedded)
        let posterPath = try #require(entry.renditions.first { $0.role == AssetProcessor.motionPosterRole }?.path)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(posterPath).path))
        let second = try await Batch(inputs: [input], output: output, jobs: 1).run()
        #expect(second.summary.skipped == 1 && second.summary.processed == 0, "\(second.summary)")
    }

    /// The same JPEG without its video tail, or with an XMP whose lengths point at no MP4,
    /// is a plain photo.
    @Test func aMotionPhotoXMPWithoutItsVideoIsAPhoto() throws {
        let bytes = try MediaSamples.bytes("video-motion-photo.jpg")
        let start = try #require(Self.firstBox("ftyp", in: bytes))
        let stillOnly = try MediaSamples.temporaryFile("still-only.jpg", Array(bytes[..<start]))
        let result = AssetProcessor().processBlocking(fileAt: stillOnly, displayName: "still-only.jpg")
        #expect(result.error == nil && result.kind == .photo && result.livePhoto == nil)
    }

    /// Where the first box of type `type` starts (its size field) in `bytes`.
    static func firstBox(_ type: String, in bytes: [UInt8]) -> Int? {
        let tag = Array(type.utf8)
        var index = 0
        while index + 8 <= bytes.count {
            if Array(bytes[(index + 4)..<(index + 8)]) == tag { return index }
            index += 1
        }
        return nil
    }

    @Test func xmpFieldsInAttributeAndElementForms() throws {
        let attributes = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:Camera="http://ns.google.com/photos/1.0/camera/" Camera:MotionPhoto = '1'>
            <!-- <Container:Item Item:Semantic="MotionPhoto" Item:Length="999"/> -->
            <Container:Directory><rdf:Seq>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="8"/></rdf:li>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="4242"/></rdf:li>
            </rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let fields = try #require(MotionPhotoXMP.parse(Array(attributes.utf8)))
        #expect(fields.isMotionPhoto)
        #expect(fields.items == [
            MotionPhotoXMP.Item(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 8),
            MotionPhotoXMP.Item(mime: "video/mp4", semantic: "MotionPhoto", length: 4242, padding: nil),
        ], "the commented-out item is not read")

        let elements = """
            <rdf:Description><GCamera:MicroVideo>1</GCamera:MicroVideo>
            <GCamera:MicroVideoVersion>1</GCamera:MicroVideoVersion>
            <GCamera:MicroVideoOffset> 123456 </GCamera:MicroVideoOffset></rdf:Description>
            """
        let old = try #require(MotionPhotoXMP.parse(Array(elements.utf8)))
        #expect(old.isMotionPhoto && old.microVideoOffset == 123456 && old.items.isEmpty)

        #expect(MotionPhotoXMP.parse(Array("<x:xmpmeta><exif:DateTimeOriginal>2020</exif:DateTimeOriginal>".utf8)) == nil)
        #expect(MotionPhotoXMP.parse(Array(repeating: 0x20, count: 300_000) + Array("MotionPhoto".utf8)) == nil,
                "packets over 256 KiB are not read")
    }

    /// Read as XML: directory items in element form (in an `rdf:Seq`, each field its own
    /// element), and the camera namespace under a prefix of the writer's choosing; a
    /// `MotionPhoto` field in some other namespace says nothing.
    @Test func xmpFieldsAsXMLElementItemsAndAnyPrefix() throws {
        let elements = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:cam="http://ns.google.com/photos/1.0/camera/"
                xmlns:dir="http://ns.google.com/photos/1.0/container/"
                xmlns:it="http://ns.google.com/photos/1.0/container/item/">
            <cam:MotionPhoto>1</cam:MotionPhoto>
            <dir:Directory><rdf:Seq>
            <rdf:li rdf:parseType="Resource"><dir:Item rdf:parseType="Resource">
              <it:Mime>image/jpeg</it:Mime><it:Semantic>Primary</it:Semantic><it:Length>0</it:Length>
            </dir:Item></rdf:li>
            <rdf:li rdf:parseType="Resource"><dir:Item rdf:parseType="Resource">
              <it:Mime>video/mp4</it:Mime><it:Semantic>MotionPhoto</it:Semantic>
              <!-- <it:Length>1</it:Length> --><it:Length> 5150 </it:Length><it:Padding>16</it:Padding>
            </dir:Item></rdf:li>
            </rdf:Seq></dir:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let fields = try #require(MotionPhotoXMP.parse(Array(elements.utf8)))
        #expect(fields.isMotionPhoto)
        #expect(fields.items == [
            MotionPhotoXMP.Item(mime: "image/jpeg", semantic: "Primary", length: 0, padding: nil),
            MotionPhotoXMP.Item(mime: "video/mp4", semantic: "MotionPhoto", length: 5150, padding: 16),
        ])
        let otherNamespace = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:GCamera="http://example.com/not-google/" GCamera:MotionPhoto="1"/>
            </rdf:RDF></x:xmpmeta>
            """
        #expect(MotionPhotoXMP.parse(Array(otherNamespace.utf8))?.isMotionPhoto != true)
        let withDoctype = "<!DOCTYPE x [<!ENTITY e \"1\">]><x xmlns:c=\"http://ns.google.com/photos/1.0/camera/\" c:MotionPhoto=\"1\"/>"
        #expect(MotionPhotoXMP.parse(Array(withDoctype.utf8)) == nil, "a DTD is refused")
    }

    /// A HEIF motion photo (Samsung One UI 6) keeps its MP4 in a top-level `mpvd` box; the
    /// trailer box after it is not part of the video.
    @Test func heifMotionPhotoVideoIsTheMpvdPayload() throws {
        let mp4 = try MediaSamples.bytes("video-av1.mp4")
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            var result: [UInt8] = withUnsafeBytes(of: size.bigEndian) { Array($0) }
            result += Array(type.utf8)
            result += payload
            return result
        }
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let file = ftyp + box("mdat", [1, 2, 3]) + box("mpvd", mp4) + box("sefd", [UInt8](repeating: 7, count: 40))
        let found = try #require(EmbeddedMotionLocator.locate(in: MemoryBytes(bytes: file), format: .heic, xmp: nil))
        #expect(found == EmbeddedMotion(offset: ftyp.count + 11 + 8, length: mp4.count, locatedBy: "heif.mpvd"))
        #expect(EmbeddedMotionLocator.locate(in: MemoryBytes(bytes: ftyp + box("mdat", [1])), format: .heic, xmp: nil) == nil)
    }
}
