import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// Issue 33, the decoder dispatch: the pipeline chooses decoders from a table keyed by what a
/// handler declares (`StillLoading.codec`, `animated`, `iconWhenTransparent`), never by the
/// format; and the `DecodeGuard` reaches the imaging and video layers as a parameter, not
/// through the thread.
@Suite struct DecoderTableTests {
    /// A handler that was never registered, for a format the pipeline has never seen (an MPO,
    /// a JPEG container), declaring only the JPEG codec: it gets every JPEG decoder, and a
    /// coding nobody declared gets libvips alone. Nothing in the pipeline names either.
    @Test func aNewHandlersDeclaredCodecChoosesItsDecoders() {
        let mpo = FormatDescription(SourceFormat(identifier: "mpo"), mediaType: "image/mpo", suffixes: ["mpo"], kind: .still,
                                    still: StillLoading(loader: "jpegload_buffer", codec: .jpeg))
        let decoders = StillDecoders.entry(codec: mpo.still?.codec)
        #expect(decoders.stopsByItself && decoders.retriesPastWarnings && decoders.fast == nil)
        let route = LibvipsStillRoute.of(mpo.still?.codec)
        #expect(route.resampled == .jpeg && route.dctShrinkOnLoad && !route.primaryImageRetry)

        let heifLike = StillLoading(loader: "heifload_buffer", wholeImage: .heifRules, codec: .heifHEVC)
        let hevc = StillDecoders.entry(codec: heifLike.codec)
        #expect(hevc.fast?.label == "HEVC decode" && hevc.fast?.path == .heicDecode)
        #expect(hevc.tileWise != nil && hevc.boundsMemory != nil && hevc.headerWithoutLibvips != nil && hevc.libheifSeekNoise)
        #expect(LibvipsStillRoute.of(heifLike.codec).primaryImageRetry && LibvipsStillRoute.of(heifLike.codec).turnedGridSize)

        let unknown = StillDecoders.entry(codec: StillCodec(rawValue: "qoi"))
        #expect(unknown.fast == nil && unknown.refusal == nil && unknown.tileWise == nil && !unknown.stopsByItself
                && !unknown.retriesPastWarnings && !unknown.libheifSeekNoise)
        #expect(LibvipsStillRoute.of(StillCodec(rawValue: "qoi")).resampled == nil)
        #expect(StillDecoders.entry(codec: nil).fast == nil)
    }

    /// Icons and animations follow what a handler declares: an unregistered format declaring
    /// `iconWhenTransparent` makes small transparent images icons; one without does not.
    @Test func iconAndAnimationFollowTheDeclaration() {
        func described(_ still: StillLoading) -> FormatDescription {
            FormatDescription(SourceFormat(identifier: "qoi"), mediaType: "image/qoi", suffixes: ["qoi"], kind: .still, still: still)
        }
        let sticker = described(StillLoading(loader: "qoiload_buffer", iconWhenTransparent: true))
        let photo = described(StillLoading(loader: "qoiload_buffer"))
        #expect(StillDecoding.isIcon(sticker, width: 64, height: 64, transparent: true))
        #expect(!StillDecoding.isIcon(sticker, width: 64, height: 64, transparent: false))
        #expect(!StillDecoding.isIcon(sticker, width: 4000, height: 64, transparent: true))
        #expect(!StillDecoding.isIcon(photo, width: 64, height: 64, transparent: true))
        // The registered formats keep what the format checks gave them.
        #expect(SourceFormat.allCases.filter { $0.handling.still?.iconWhenTransparent == true } == [.png, .gif, .webp])
        #expect(SourceFormat.allCases.filter { $0.handling.still?.animated == true } == [.gif, .webp])
    }

    /// Every registered still gets the decoders the format checks chose before the table.
    @Test func theRegisteredFormatsKeepTheirDecoders() {
        #expect(StillDecoders.entry(for: .jpeg).stopsByItself && StillDecoders.entry(for: .jpeg).retriesPastWarnings)
        #expect(StillDecoders.entry(for: .heic).fast?.label == "HEVC decode")
        #expect(StillDecoders.entry(for: .avif).fast?.label == "AV1 decode" && StillDecoders.entry(for: .avif).tileWise == nil)
        #expect(StillDecoders.entry(for: .jp2).refusal != nil)
        #expect(LibvipsStillRoute.of(.png).resampled == .png && LibvipsStillRoute.of(.jpeg).resampled == .jpeg)
        for format in SourceFormat.allCases where ![.jpeg, .heic, .avif, .jp2].contains(format) {
            let entry = StillDecoders.entry(for: format)
            #expect(entry.fast == nil && entry.refusal == nil && !entry.stopsByItself && !entry.retriesPastWarnings, "\(format)")
        }
        // AVIF: the whole-image gate always (what `heifRules` gave it before).
        #expect(SourceFormat.avif.handling.still?.wholeImage == .always)
    }

    /// A guard handed down as a parameter stops the work although none is installed on the
    /// thread: the libvips decode, the direct JPEG decode, the resize, the encoders, the HEVC
    /// tile loop and libav's deadline.
    @Test func aPassedGuardStopsTheWorkWithoutTheThread() throws {
        #expect(DecodeGuard.current == nil)
        let stopped = DecodeGuard()
        stopped.cancel()
        let jpeg = try [UInt8](Data(contentsOf: TestSupport.sample("orientation-8-srgb.jpg")))
        try jpeg.withUnsafeBytes { raw in
            let header = try ImageHeaderReader.read(raw, format: .jpeg)
            #expect(throws: VipsError.self) {
                try ImageDecoder.decode(raw, header: header, width: 100, height: 100, allowUpscale: false, stop: stopped)
            }
            let decoded = try ImageDecoder.decode(raw, header: header, width: 200, height: 200, allowUpscale: false)
            // At 50 px the resize stops it; at 4000 px (no resize) the encoder does.
            for format in [RenditionFormat.jpeg, .webp, .png] {
              for side in [50, 4000] {
                let spec = RenditionSpec(role: "r", format: format, width: side, height: side)
                let error = #expect(throws: VipsError.self) {
                    try RenditionRenderer.render(decoded, spec: spec, sourceWidth: header.displayWidth,
                                                 sourceHeight: header.displayHeight, allowUpscale: false, stop: stopped)
                }
                #expect(error?.message == "cancelled", "\(format) \(side)")
              }
            }
        }
        let grid = try [UInt8](Data(contentsOf: TestSupport.sample("heif/grid-3x2.heic")))
        let attempt = grid.withUnsafeBytes { HEIFHEVCDecoder.attempt($0, boxWidth: 4096, boxHeight: 4096, stop: stopped) }
        if case .failure(let reason) = attempt { #expect(reason.message == "stopped") } else { Issue.record("decoded") }
        #expect(grid.withUnsafeBytes { (try? HEIFHEVCDecoder.attempt($0, boxWidth: 4096, boxHeight: 4096).get()) != nil })
        #expect(MediaDeadline(seconds: 3600, stop: stopped).hasExpired)
        #expect(!MediaDeadline(seconds: 3600, stop: DecodeGuard()).hasExpired)
    }

    /// `convert --help` lists exactly the registered formats, by their handlers' names, FITS
    /// included (it was missing from the hand-written list).
    @Test func convertHelpListsTheRegistry() throws {
        let help = try TestSupport.runCLI(["convert", "--help"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let start = try #require(text.range(of: "recognised by its first bytes ("))
        let end = try #require(text.range(of: "), decoded once", range: start.upperBound..<text.endIndex))
        var list = String(text[start.upperBound..<end.lowerBound])
        // The words between the groups first (one names JPEG as the previews' coding).
        for glue in ["exposed for display", "camera raw", "through their largest embedded JPEG preview", "movies:",
                     "audio (its cover art):", "for the capture date only (no renditions)"] {
            #expect(list.contains(glue) || glue == "for the capture date only (no renditions)", "\(glue)")
            list = list.replacingOccurrences(of: glue, with: "")
        }
        let names = FormatRegistry.described.map(\.displayName)
        #expect(names.contains("FITS") && names.count == SourceFormat.allCases.count)
        for name in names.sorted(by: { $0.count > $1.count }) {
            #expect(list.contains(name), "\(name) is not in convert --help")
            list = list.replacingOccurrences(of: name, with: "")
        }
        // What is left joins the names: no format the registry does not hold.
        for glue in [" and ", ",", ";"] { list = list.replacingOccurrences(of: glue, with: " ") }
        #expect(list.trimmingCharacters(in: .whitespaces).isEmpty, "left over: \(list)")
    }
}
