import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// GPS from an XMP sidecar (issue 30), and sidecars held to the inputs as the files beside
/// them are: a sidecar that is a symbolic link to a file outside the inputs is not read
/// (InputLinkTests for the assets themselves). Samples/location/sidecar: IMG_0005.JPG (no GPS,
/// a local time) with IMG_0005.xmp (exif:GPSLatitude/Longitude: Zurich).
@Suite(.serialized) struct SidecarLocationTests {
    static let sample = TestSupport.samples.appendingPathComponent("location/sidecar/IMG_0005.JPG")

    @Test(arguments: [true, false])
    func theSidecarGivesThePosition(listing: Bool) throws {
        let inspection = CaptureDateReader.inspect(fileAt: Self.sample, sidecars: listing ? .listing() : .direct)
        let location = try #require(inspection.location)
        #expect(abs(location.latitude - 47.3769) < 1e-6 && abs(location.longitude - 8.5417) < 1e-6)
        #expect(location.source == "xmp-sidecar.exif:GPS")
        #expect(inspection.place?.admin1 == "Zurich" && inspection.place?.timeZone == "Europe/Zurich")
        // The file's own local time, with the place's summer offset.
        let date = try #require(inspection.captureDate)
        #expect(date.local?.description == "2024-06-10T18:45:00" && date.offsetText == "+02:00")
        #expect(date.source == "exif.DateTimeOriginal" && date.confidence == .offsetFromPlace)
    }

    /// in/IMG_0005.JPG with in/IMG_0005.xmp → ../secret.xmp (outside the inputs). Without
    /// --follow-symlinks the batch reads neither position nor date from it; with it, it does.
    @Test func aSidecarLinkedFromOutsideTheInputsIsNotRead() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        let manager = FileManager.default
        try manager.createDirectory(at: input, withIntermediateDirectories: true)
        try manager.copyItem(at: Self.sample, to: input.appendingPathComponent("IMG_0005.JPG"))
        let secret = root.appendingPathComponent("secret.xmp")
        // A sidecar with a position and a full timestamp (which would win over the file's date).
        try Data("""
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
            <rdf:Description rdf:about='' xmlns:exif='http://ns.adobe.com/exif/1.0/'>
            <exif:DateTimeOriginal>2001-02-03T04:05:06+01:00</exif:DateTimeOriginal>
            <exif:GPSLatitude>47,22.614N</exif:GPSLatitude><exif:GPSLongitude>8,32.502E</exif:GPSLongitude>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8).write(to: secret)
        try manager.createSymbolicLink(atPath: input.appendingPathComponent("IMG_0005.xmp").path, withDestinationPath: secret.path)

        let manifest = try await Batch(inputs: [input], output: root.appendingPathComponent("out"), jobs: 1).run()
        let entry = try #require(manifest.assets.first { $0.source == "IMG_0005.JPG" })
        #expect(entry.location == nil && entry.place == nil, "\(String(describing: entry.location))")
        #expect(entry.captureDate?.source == "exif.DateTimeOriginal" && entry.captureDate?.confidence == .localOnly)

        var follow = Batch(inputs: [input], output: root.appendingPathComponent("out-follow"), jobs: 1)
        follow.followSymlinks = true
        let followed = try await follow.run()
        let read = try #require(followed.assets.first { $0.source == "IMG_0005.JPG" })
        #expect(read.location?.source == "xmp-sidecar.exif:GPS")
        #expect(read.captureDate?.source == "xmp-sidecar.exif:DateTimeOriginal")
    }
}
