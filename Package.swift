// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "JournalMedia",
    products: [
        .library(name: "JournalMedia", targets: ["JournalMedia"]),
        // The service's routes for a backend's own Hummingbird app (`JournalMediaRoutes`); brings
        // Hummingbird and SwiftNIO. `JournalMedia` alone builds neither.
        .library(name: "JournalMediaServer", targets: ["JournalMediaServer"]),
        .executable(name: "journal-media", targets: ["journal-media"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Logging and metrics APIs only (no back end): a few seconds of build, no NIO.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // `journal-media serve` only (the JournalMediaServer target): HTTP, graceful shutdown,
        // Prometheus text. SwiftNIO comes with them; the library targets never see it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Already under Hummingbird; named for the server's connection limits (NIOCore, NIOHTTPTypes).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Already under Hummingbird; named for the server's spans (Tracing API, no back end).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.3.0"),
        // The on-demand route's HTTP(S) sources (`GET /v1/render/…`); already resolved under
        // Hummingbird. Brings swift-nio-ssl (BoringSSL) into the server's build.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.30.0"),
    ],
    targets: [
        // System libraries: headers and link flags come from pkg-config; `make deps` installs the providers.
        // libvips' headers lie on the default path; its pkg-config name would also bring GModule's
        // `-pthread`, which SwiftPM drops with a warning in every consumer's build: GObject's gives
        // GLib's include folders, and the module map links libvips.
        .systemLibrary(
            name: "CVips", path: "Sources/CVips", pkgConfig: "gobject-2.0",
            providers: [.apt(["libvips-dev"])]),
        // LittleCMS 2, already in the process through libvips (libvips-dev depends on liblcms2-dev).
        .systemLibrary(
            name: "CLCMS2", path: "Sources/CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        // libav's headers only (types, macros): no pkgConfig, whose -l flags would link the
        // libraries. Debian puts the headers on the default include path (/usr/include/<triplet>).
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libavfilter-dev"])]),
        // libavformat, libavcodec, libavutil, libswscale and libavfilter opened with dlopen on first
        // use: every libav function the toolkit calls, defined with libav's prototype and forwarded
        // (issue 19: linked, their 63 libraries, ~30 more for libavfilter, cost every run ~20 ms of
        // start-up). Written here; video only.
        .target(name: "CLibavLoader", path: "Sources/CLibavLoader", linkerSettings: [.linkedLibrary("dl")]),
        // Pango, for the card renderer's text measurement (line fitting, ellipsis, unknown-glyph
        // count); libvips' `text` draws the pixels with the same Pango. Imaging only. The shim
        // declares the calls itself (Pango's pkg-config names bring `-pthread`, as libvips').
        .systemLibrary(
            name: "CPango", path: "Sources/CPango", pkgConfig: "gobject-2.0",
            providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(
            name: "CExif", path: "Sources/CExif", pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // libxml2's pull parser (XMP read as XML) and zlib's inflate (compressed PNG text): both
        // already loaded by libvips. Metadata only.
        .systemLibrary(
            name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // libdeflate's whole-buffer zlib compression, for the PNG encode of renditions
        // (DirectPNGEncode); already in the process through libvips' libtiff. Imaging only.
        .systemLibrary(
            name: "CLibdeflate", path: "Sources/CLibdeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // glibc's malloc.h, for the command-line tool's allocator settings (AllocatorTuning).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The architecture, bottom up; arrows point one way. Only the four targets in the middle
        // import C libraries: metadata libexif (+ libxml2, zlib), imaging libvips, video libav, and
        // the pipeline libcrypto. Resampling imports only the project's own C kernels.
        // Core: model, manifest, colour maths, ThumbHash, dates, byte readers, HEIF boxes. No C.
        .target(
            name: "JournalMediaCore",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // HEIF: the container of HEIC and AVIF stills (boxes, the `meta` items, grids, transforms,
        // colour signalling) and the decoded-RGB record its decoders hand over. No C; read by
        // metadata (Exif/XMP items, container bounds), imaging (headers) and video (the HEVC and
        // AV1 still decodes in Video/FastPaths), so it sits on the core, below all three.
        .target(name: "JournalMediaHEIF", dependencies: ["JournalMediaCore"],
                swiftSettings: [.swiftLanguageMode(.v6)]),
        // Notifications: suggestion links (JSNotificationURLFormat), their AASA entries and APNs
        // push payloads. No C and nothing of the pipeline; `link` and `push` use it, and
        // JournalMedia re-exports it. (Attachment limits are the model's: Core.)
        .target(name: "JournalMediaNotifications", swiftSettings: [.swiftLanguageMode(.v6)]),
        // Suggestions: the bundle (model, reader, limits) and CardSpecBuilder (texts, locale
        // formats, colours, routes of each card). No C; the pipeline's suggestion processor, the
        // service and the CLI use it, and JournalMedia re-exports it.
        .target(name: "JournalMediaSuggestions", dependencies: ["JournalMediaCore"],
                swiftSettings: [.swiftLanguageMode(.v6)]),
        // Metadata: container walks (JPEG, PNG, RIFF, HEIF, TIFF, PSD), EXIF via libexif, the Apple
        // MakerNote, XMP via libxml2, capture-date resolution.
        .target(
            name: "JournalMediaMetadata",
            dependencies: ["JournalMediaCore", "JournalMediaHEIF", "CExif", "CLibXML2", "CZlib"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The resampler's fixed-point inner loops (SSE2 pmaddwd; plain C elsewhere) and the
        // Y'CbCr → RGB row conversion, written here. Resampling only.
        .target(name: "CResampleKernel", path: "Sources/FastPaths/CResampleKernel"),
        // Resampling: the fixed-point Lanczos-3 resampler of 8-bit pixels in memory and the
        // planar Y'CbCr → RGB conversion after it; no C library. Shared by imaging (rendition
        // resizes, the JPEG decode's reduction) and video (the HEIC fast path's planes).
        .target(
            name: "JournalMediaResampling",
            dependencies: ["CResampleKernel"],
            path: "Sources/FastPaths/JournalMediaResampling",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // libjpeg's error manager for the two C targets below: error_exit keeps the text and
        // longjmps to the caller's setjmp, warnings counted (the first one's text kept), nothing
        // printed; the setjmp rules in its header. Written here; C targets only.
        .target(name: "CJPEGErrors", path: "Sources/FastPaths/CJPEGErrors", linkerSettings: [.linkedLibrary("jpeg")]),
        // The JPEG decode on the calling thread (libjpeg-turbo, already loaded by libvips):
        // libjpeg's errors caught through CJPEGErrors, libvips' chunking and settings, so the
        // samples and failures are libvips' own. Written here; imaging only.
        .target(name: "CJPEGDecode", dependencies: ["CJPEGErrors"], path: "Sources/FastPaths/CJPEGDecode",
                linkerSettings: [.linkedLibrary("jpeg")]),
        // libvips' error entry points (vips_verror, freeze/thaw/clear) and its two threaded
        // sinks, defined ahead of libvips so each message lands with the computation it
        // belongs to; forwards to libvips. Written here; imaging only (CVipsMessages.h). Also
        // cairo's image-surface constructor, so a stopped decode's SVG drawing stops: librsvg is
        // linked so that the linker exports that definition (librsvg is what calls it).
        .target(name: "CVipsMessages", path: "Sources/CVipsMessages",
                linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("rsvg-2")]),
        // JPEG (libjpeg) and lossy WebP (libwebp) encodes of 8-bit pixels in memory on the calling
        // thread, with libvips 8.14's settings; libjpeg's errors caught through CJPEGErrors. Both
        // libraries are already in the process through libvips; linked here by name, headers from
        // the default include path (libjpeg62-turbo-dev, libwebp-dev). Also the PNG fallback's
        // Paeth filter and deflate (no library). Written here; imaging only.
        .target(name: "CStillEncode", dependencies: ["CJPEGErrors"], path: "Sources/FastPaths/CStillEncode",
                linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("webp")]),
        // Imaging: the libvips operation layer, headers, decode, renditions, analysis pixels.
        .target(
            name: "JournalMediaImaging",
            dependencies: ["JournalMediaCore", "JournalMediaHEIF", "CVips", "CVipsMessages", "CStillEncode", "CJPEGDecode", "CLCMS2", "CPango", "JournalMediaResampling", "CResampleKernel", "CLibdeflate",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Video: libav open (custom I/O), probe, poster frames, tone-mapping, cover art, and
        // the HEVC decode of HEIC stills.
        .target(
            name: "JournalMediaVideo",
            dependencies: ["JournalMediaCore", "JournalMediaHEIF", "JournalMediaResampling", "CFFmpeg", "CLibavLoader",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Pipeline: probes, sources and their registry, the rendition step, Live Photo pairing,
        // batches. Re-exports the layers below, so `import JournalMedia` is all a user writes.
        .target(
            name: "JournalMedia",
            dependencies: ["JournalMediaCore", "JournalMediaHEIF", "JournalMediaMetadata", "JournalMediaImaging", "JournalMediaVideo",
                           "JournalMediaNotifications", "JournalMediaSuggestions", "CCrypto", .product(name: "Logging", package: "swift-log"),
                           .product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The service contract (openapi.yaml) embedded at build time with #embed, for GET /openapi.yaml.
        // Written here; server only.
        .target(name: "COpenAPISpec", path: "Sources/COpenAPISpec"),
        // `journal-media serve`: the HTTP service (Hummingbird 2, service-lifecycle, Prometheus).
        // Its own target, so the library targets never build SwiftNIO.
        .target(
            name: "JournalMediaServer",
            dependencies: [
                "JournalMedia", "COpenAPISpec",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "journal-media",
            dependencies: [
                "JournalMedia", "JournalMediaServer", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // `make bench`: the per-asset cost of colours and placeholders.
        .executableTarget(
            name: "color-bench",
            dependencies: ["JournalMedia"],
            path: "Benchmarks/ColorBench",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // `make bench`: light + dark card pairs rendered and written through the rendition step;
        // `card-bench --write DIR` makes the README's card pictures.
        .executableTarget(
            name: "card-bench",
            dependencies: ["JournalMedia"],
            path: "Benchmarks/CardBench",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Quick before/after checks of the rendition path (issue 19): the convert batch
        // without the server's dependencies, so a release build takes minutes.
        // `make bench`: the HEIC levers (loop filters, the HEVC-decode floor) outside the batch.
        .executableTarget(
            name: "heic-bench",
            dependencies: ["JournalMediaCore", "JournalMediaHEIF", "JournalMediaImaging", "JournalMediaVideo"],
            path: "Benchmarks/HEICBench",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "convert-bench",
            dependencies: ["JournalMedia"],
            path: "Benchmarks/ConvertBench",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "JournalMediaTests",
            dependencies: ["JournalMedia", "JournalMediaCore", "JournalMediaHEIF", "JournalMediaMetadata", "JournalMediaImaging", "JournalMediaNotifications", "JournalMediaSuggestions",
                           "JournalMediaVideo", "JournalMediaResampling", "CResampleKernel", "CStillEncode", "CExif", "CVips", "CFFmpeg", "CZlib",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "InMemoryLogging", package: "swift-log"),
                           .product(name: "Metrics", package: "swift-metrics"),
                           .product(name: "MetricsTestKit", package: "swift-metrics"),
                           .product(name: "Prometheus", package: "swift-prometheus"),
                           // The OTLP collector stand-in of ServerOperationsTests.
                           .product(name: "Hummingbird", package: "hummingbird"),
                           "JournalMediaServer"],
            resources: [],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
