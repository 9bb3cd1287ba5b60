import Foundation
import JournalMediaCore
import JournalMediaMetadata

/// What every container fuzz target does with its input, as the probe does with a file: the
/// bounds check, the metadata walk, libexif over the EXIF block found, the Apple MakerNote,
/// and the capture-date resolution over EXIF, XMP and PNG text. Any trap, overflow or
/// memory error on the way is a finding.
public enum FuzzSupport {
    public static func exerciseStill(_ data: UnsafeRawPointer, _ count: Int, as format: SourceFormat) {
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
        let source = MemoryBytes(bytes: bytes)
        _ = ContainerBounds.check(source, format: format)
        let blocks = MetadataBlocks.find(in: source, format: format)
        resolveDates(exif: blocks.exif, xmp: blocks.xmp, texts: blocks.texts, movieCreated: blocks.movieCreated)
        if format == .jpeg {
            // The coded-picture walk behind a JPEG copied as its own fallback, and the copy.
            bytes.withUnsafeBytes { raw in
                guard let layout = JPEGCodedLayout.parse(raw) else { return }
                let copy = layout.pictureOnly(raw)
                _ = copy.withUnsafeBytes { JPEGCodedLayout.parse($0) }
                _ = layout.chromaLayout
                _ = layout.lumaTable
            }
        }
    }

    public static func resolveDates(exif tiff: [UInt8]?, xmp: [UInt8]?, texts: [(keyword: String, text: String)],
                                    movieCreated: LocalDateTime? = nil) {
        var resolver = CaptureDateResolver(fileName: "IMG_20240101_120000.jpg", modified: 0)
        let exif = tiff.flatMap(ExifBlock.init(tiff:))
        resolver.exif = exif
        resolver.xmpBytes = xmp
        resolver.sidecar = xmp.map(XMPPacket.init)
        resolver.pngTexts = texts
        resolver.movieCreated = movieCreated
        if let note = exif?.makerNote() { _ = AppleMakerNote.parse(note) }
        _ = resolver.resolve()
        // Where and with what: the GPS IFD, the camera tags, the XMP packet's GPS properties.
        var warnings: [String] = []
        if let exif {
            _ = LocationReader.read(exif, warnings: &warnings)
            _ = CameraReader.read(exif)
        }
        if let xmp { _ = LocationReader.read(XMPPacket(xmp), warnings: &warnings) }
    }

    /// The input as text, for the text parsers.
    public static func text(_ data: UnsafeRawPointer, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    }
}

/// libFuzzer's driver (in the toolchain's libclang_rt.fuzzer): parses the command line and
/// runs `callback` on each input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> Int32) -> Int32

extension FuzzSupport {
    /// The process entry of a fuzz target. SwiftPM links executables with their `main`
    /// renamed to `<target>_main`, so each target exports that symbol and starts libFuzzer's
    /// driver from it instead of relying on libFuzzer's own `main`.
    public static func runDriver(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                 _ callback: @convention(c) (UnsafeRawPointer?, Int) -> Int32) -> Int32 {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, callback)
    }
}
