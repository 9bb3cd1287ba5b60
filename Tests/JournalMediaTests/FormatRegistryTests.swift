import Foundation
import Testing
@testable import JournalMediaCore

/// Issue 33 item 1: every format is one registered handler (`FormatRegistry`), and moving the
/// sniffing into the handlers changed no file's format.
@Suite struct FormatRegistryTests {
    /// The 43 identifiers of the closed enum before the registry: each still reads back, so
    /// manifests stay valid.
    static let identifiers = [
        "jpeg", "png", "webp", "gif", "tiff", "heic", "avif", "svg", "pdf", "jxl", "bmp", "ico", "dng", "cr2",
        "nef", "arw", "orf", "raf", "rw2", "jp2", "pnm", "pfm", "exr", "hdr", "mov", "mp4", "m4v", "3gp", "m4a",
        "mp3", "flac", "ogg", "avi", "mpegts", "mkv", "webm", "psd", "dv", "wav", "aiff", "flv", "mxf", "aac",
    ]

    @Test func everyFormatIsDescribedByExactlyOneHandler() throws {
        for format in SourceFormat.allCases {
            let owners = FormatRegistry.handlers.filter { $0.formats.contains { $0.format == format } }
            #expect(owners.count == 1, "\(format): \(owners.count) handlers")
        }
        #expect(Set(SourceFormat.allCases).count == SourceFormat.allCases.count)
        for name in Self.identifiers {
            let format = try #require(SourceFormat(rawValue: name), "\(name)")
            #expect(format.handling.format == format && format.rawValue == name)
            let json = try JSONEncoder().encode([format])
            #expect(String(decoding: json, as: UTF8.self) == "[\"\(name)\"]")
            #expect(try JSONDecoder().decode([SourceFormat].self, from: json) == [format])
        }
        #expect(SourceFormat(rawValue: "doc") == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([SourceFormat].self, from: Data("[\"doc\"]".utf8)) }
        // One media type per format, so a manifest's mediaType names one format back.
        #expect(Set(SourceFormat.allCases.map(\.mediaType)).count == SourceFormat.allCases.count)
    }

    /// What a handler declares fits its kind: stills, vectors and raws have a libvips loader;
    /// movies, audio and metadata-only formats none; a format loaded whole always takes the gate.
    @Test func descriptionsAreConsistentWithTheirKind() {
        for format in SourceFormat.allCases {
            let handling = format.handling
            switch handling.kind {
            case .still, .vector, .cameraRaw: #expect(handling.still != nil, "\(format)")
            case .video, .audio, .metadataOnly: #expect(handling.still == nil, "\(format)")
            }
            if let still = handling.still, still.loadsWhole { #expect(still.wholeImage == .always, "\(format)") }
            #expect(!handling.suffixes.isEmpty, "\(format)")
        }
    }

    /// Handlers are asked in priority order, table order among equals; a weak signature (a
    /// letter, a sync byte, text) is never asked before a fixed one.
    @Test func handlersAreAskedByPriority() {
        let priorities = FormatRegistry.sniffOrder.map(\.priority)
        #expect(priorities == priorities.sorted(by: >))
        #expect(FormatRegistry.sniffOrder.last is SVGFormat)
    }

    /// Every file under Samples/ sniffs as the closed enum's sniffer (main at 35b664a) did:
    /// `before` was written by that code run over Samples/ (nil: not media).
    @Test func samplesSniffAsBeforeTheRegistry() throws {
        var changed: [String] = []
        for (path, format) in Self.before {
            let handle = try FileHandle(forReadingFrom: TestSupport.sample(path))
            defer { try? handle.close() }
            let head = try handle.read(upToCount: FormatSniffer.prefixLength) ?? Data()
            if FormatSniffer.sniff([UInt8](head)) != format { changed.append(path) }
        }
        #expect(changed.isEmpty, "\(changed)")
    }

    static let before: [String: SourceFormat?] = [
        "adobe-rgb-16bit.png": .png,
        "alpha-disc.png": .png,
        "alpha-edge.png": .png,
        "audio-cover.aiff": .aiff,
        "audio-tone.aac": .aac,
        "audio-voice.wav": .wav,
        "cmyk.jpg": .jpeg,
        "dates/IMG-20230101-WA0001.jpg": .jpeg,
        "dates/PXL_20230101_120000123.png": .png,
        "dates/Screenshot 2023-01-01 at 12.00.00.png": .png,
        "dates/VID_20221231_235959.mp4": .mp4,
        "dates/apple-creationdate.mov": .mov,
        "dates/creation-time-only.mp4": .mp4,
        "dates/creation-time.png": .png,
        "dates/dated.heic": .heic,
        "dates/dated.webp": .webp,
        "dates/exif.png": .png,
        "dates/future-date.jpg": .jpeg,
        "dates/garbled-exif.jpg": .jpeg,
        "dates/gps-absurd.jpg": .jpeg,
        "dates/gps-time.jpg": .jpeg,
        "dates/local-only.jpg": .jpeg,
        "dates/modify-only.jpg": .jpeg,
        "dates/offset-subsec.jpg": .jpeg,
        "dates/voice-bext.wav": .wav,
        "dates/voice-icrd.wav": .wav,
        "dates/wrong-type.jpg": .jpeg,
        "dates/xmp-only.jpg": .jpeg,
        "dates/zero-date.jpg": .jpeg,
        "empty.png": nil,
        "formats/absolute.hdr": .hdr,
        "formats/icon.ico": .ico,
        "formats/ihdr-crc-damaged.png": .png,
        "formats/linear.exr": .exr,
        "formats/linear.pfm": .pfm,
        "formats/raw-preview.cr2": .cr2,
        "formats/raw-preview.dng": .tiff,
        "formats/raw-preview.orf": .orf,
        "formats/restart-marker-damaged.jpg": .jpeg,
        "formats/scene.bmp": .bmp,
        "formats/scene.jp2": .jp2,
        "formats/scene.jxl": .jxl,
        "formats/scene.ppm": .pnm,
        "heif/10bit-422-grid-irot-first.heic": .heic,
        "heif/10bit-422-grid-rotated.heic": .heic,
        "heif/10bit-422-grid-rotated.pillow-heif.png": .png,
        "heif/10bit-422.heic": .heic,
        "heif/10bit-422.pillow-heif.png": .png,
        "heif/10bit.heic": .heic,
        "heif/12bit-444.heic": .heic,
        "heif/12bit-444.pillow-heif.png": .png,
        "heif/alpha.heic": .heic,
        "heif/avif-hdr-pq-p3-10bit-rot270.avif": .avif,
        "heif/avif-sdr-8bit-rot90-mirror.avif": .avif,
        "heif/clap-rotated.heic": .heic,
        "heif/grid-3x2.heic": .heic,
        "heif/nclx-bt709-limited.heic": .heic,
        "heif/nclx-p3.heic": .heic,
        "heif/overlay.heic": .heic,
        "heif/overlay.pillow-heif.png": .png,
        "heif/rotated-mirrored.heic": .heic,
        "heif/thumbnail.heic": .heic,
        "heif/vui-bt709-limited.heic": .heic,
        "icc/cmyk-small-untagged.jpg": .jpeg,
        "icc/link-profile.heic": .heic,
        "icc/link-profile.jpg": .jpeg,
        "icc/nmcl-profile.heic": .heic,
        "icc/nmcl-profile.jpg": .jpeg,
        "icon.pdf": .pdf,
        "icon.svg": .svg,
        "jpeg-decode/cmyk-no-adobe.jpg": .jpeg,
        "jpeg-decode/grey-rgb-profile.jpg": .jpeg,
        "jpeg-decode/grey.jpg": .jpeg,
        "jpeg-decode/odd-size.jpg": .jpeg,
        "jpeg-decode/progressive.jpg": .jpeg,
        "jpeg-decode/restart-interval.jpg": .jpeg,
        "jpeg-decode/subsample-422.jpg": .jpeg,
        "jpeg-decode/subsample-440.jpg": .jpeg,
        "jpeg-decode/subsample-444.jpg": .jpeg,
        "jpeg-decode/thin-grey-profile.jpg": .jpeg,
        "jpeg-decode/ycck.jpg": .jpeg,
        "jpeg-reuse/in-box-gps.jpg": .jpeg,
        "jpeg-reuse/in-box-q95.jpg": .jpeg,
        "limits/grey-subsampled.jp2": .jp2,
        "limits/sps-16000x16000.mp4": .mp4,
        "limits/video-ffv1.mkv": .mkv,
        "limits/video-sorenson.flv": .flv,
        "live/IMG_0001.JPG": .jpeg,
        "live/IMG_0001.MOV": .mov,
        "live/IMG_0002.JPG": .jpeg,
        "live/IMG_0002.MOV": .mov,
        "live/IMG_0003.JPG": .jpeg,
        "live/IMG_0003.MOV": .mov,
        "location/android-xyz.mp4": .mp4,
        "location/apple-keys.mov": .mov,
        "location/bad-iso6709.mov": .mov,
        "location/full.jpg": .jpeg,
        "location/iphone-se-live.heic": .heic,
        "location/live/IMG_0001.JPG": .jpeg,
        "location/live/IMG_0001.MOV": .mov,
        "location/matroska-apple-keys.mkv": .mkv,
        "location/matroska-location.mkv": .mkv,
        "location/no-ref.jpg": .jpeg,
        "location/out-of-range.jpg": .jpeg,
        "location/pixel6-ultrahdr.jpg": .jpeg,
        "location/sidecar/IMG_0005.JPG": .jpeg,
        "location/sidecar/IMG_0005.xmp": nil,
        "location/south-west-below.jpg": .jpeg,
        "location/status-void.jpg": .jpeg,
        "location/xmp-only.jpg": .jpeg,
        "location/zero-denominator.jpg": .jpeg,
        "location/zero-fix.jpg": .jpeg,
        "location/zone/london-summer.jpg": .jpeg,
        "location/zone/london-winter.jpg": .jpeg,
        "location/zone/pixel6-no-offset.jpg": .jpeg,
        "not-an-image.jpg": nil,
        "orientation-6-gps-p3.jpg": .jpeg,
        "orientation-8-srgb.jpg": .jpeg,
        "photo-p3-rotated.heic": .heic,
        "photo.heic": .heic,
        "scene.gif": .gif,
        "scene.webp": .webp,
        "song-cover.m4a": .m4a,
        "song-cover.mp3": .mp3,
        "song-no-cover.mp3": .mp3,
        "suggestions/edge-cases/files/clip.mp4": .mp4,
        "suggestions/edge-cases/files/corrupt.jpg": .jpeg,
        "suggestions/edge-cases/files/escape.jpg": .jpeg,
        "suggestions/edge-cases/files/picker-tile.webp": .webp,
        "suggestions/edge-cases/suggestion.json": nil,
        "suggestions/morning-run/files/artwork.jpg": .jpeg,
        "suggestions/morning-run/files/live/IMG_0001.JPG": .jpeg,
        "suggestions/morning-run/files/live/IMG_0001.MOV": .mov,
        "suggestions/morning-run/files/map.png": .png,
        "suggestions/morning-run/files/mood.png": .png,
        "suggestions/morning-run/files/photo.jpg": .jpeg,
        "suggestions/morning-run/files/run-icon.png": .png,
        "suggestions/morning-run/suggestion.json": nil,
        "suggestions/world-scripts/files/app-icon.svg": .svg,
        "suggestions/world-scripts/files/contact.webp": .webp,
        "suggestions/world-scripts/files/poster.jpg": .jpeg,
        "suggestions/world-scripts/suggestion.json": nil,
        "truncated.jpg": .jpeg,
        "video-av1.mp4": .mp4,
        "video-avchd-mdpm.mts": .mpegTS,
        "video-black-start.mp4": .mp4,
        "video-dv.dv": .dv,
        "video-h264.flv": .flv,
        "video-h264.mts": .mpegTS,
        "video-hdr-hlg.mov": .mov,
        "video-hdr-pq-dci-p3.mov": .mov,
        "video-hevc.mkv": .mkv,
        "video-mjpeg.mov": .mov,
        "video-motion-photo.jpg": .jpeg,
        "video-mpeg2.mxf": .mxf,
        "video-mpeg4.avi": .avi,
        "video-open-gop.mp4": .mp4,
        "video-roll-90.webm": .webm,
        "video-rotate-tag.mkv": .mkv,
        "video-rotated-90.mp4": .mp4,
        "video-short.ts": .mpegTS,
        "video-vp9.webm": .webm,
        "xmp/date-only-created.psd": .psd,
        "xmp/exif-xmp.psd": .psd,
        "xmp/hostile/billion-laughs.xmp": nil,
        "xmp/hostile/external-entity.xmp": nil,
        "xmp/packets/attribute.xmp": nil,
        "xmp/packets/comment-first.xmp": nil,
        "xmp/packets/element-seq.xmp": nil,
        "xmp/packets/element-xap.xmp": nil,
        "xmp/packets/other-prefix.xmp": nil,
        "xmp/packets/spaces-around-equals.xmp": nil,
        "xmp/sequence.heics": .heic,
        "xmp/sidecars/DSC_0003.XMP": nil,
        "xmp/sidecars/DSC_0003.jpg": .jpeg,
        "xmp/sidecars/IMG_0001.JPG": .jpeg,
        "xmp/sidecars/IMG_0001.xmp": nil,
        "xmp/sidecars/IMG_0002.JPG": .jpeg,
        "xmp/sidecars/IMG_0002.JPG.xmp": nil,
        "xmp/sidecars/IMG_0004.JPG": .jpeg,
        "xmp/xmp-compressed.png": .png,
        "xmp/xmp-item-untyped.heic": .heic,
    ]
}
