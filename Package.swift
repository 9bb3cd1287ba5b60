// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "JournalMedia",
    products: [
        .library(name: "JournalMedia", targets: ["JournalMedia"]),
        .executable(name: "journal-media", targets: ["journal-media"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries: headers and link flags come from pkg-config; `make deps` installs the providers.
        .systemLibrary(
            name: "CVips", path: "Sources/CVips", pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]),
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libavfilter-dev"])]),
        .systemLibrary(
            name: "CExif", path: "Sources/CExif", pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // glibc's malloc.h, for the command-line tool's allocator settings (AllocatorTuning).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .target(
            name: "JournalMedia",
            dependencies: ["CVips", "CFFmpeg", "CExif", "CCrypto"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "journal-media",
            dependencies: [
                "JournalMedia", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // `make bench`: the per-asset cost of colours and placeholders.
        .executableTarget(
            name: "color-bench",
            dependencies: ["JournalMedia"],
            path: "Benchmarks/ColorBench",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "JournalMediaTests",
            dependencies: ["JournalMedia", "CExif", "CVips"],
            resources: [],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
