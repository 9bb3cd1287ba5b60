// swift-tools-version: 6.0
// libFuzzer targets for the pure-Swift parsers that read untrusted bytes. A package of its own
// so that `swift build` / `swift test` of the toolkit never build it (CI time); `make fuzz`
// builds it with `-sanitize=fuzzer,address` and runs each target for FUZZ_SECONDS.
// Sources/ holds symlinks to the toolkit's own JournalMediaCore, JournalMediaHEIF,
// JournalMediaMetadata, JournalMediaSuggestions, CExif, CLibXML2 and CZlib folders, and to the PNG fallback's PNGDeflate.c and its header
// (CPNGDeflate): the same files, compiled here in one package so `package` declarations are visible.
import PackageDescription

let targets = ["jpeg", "png", "riff", "heif", "tiff", "psd", "jp2", "makernote", "xmp", "datetext", "bundle", "location"]

let package = Package(
    name: "JournalMediaFuzz",
    // JournalMediaCore logs native libraries' messages through swift-log (the same version
    // range as the toolkit's Package.swift).
    dependencies: [.package(url: "https://github.com/apple/swift-log", from: "1.16.2")],
    targets: [
        .systemLibrary(name: "CExif", path: "Sources/CExif", pkgConfig: "libexif"),
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        // The PNG fallback's Paeth filter and deflate (the toolkit's PNGDeflate.c alone).
        .target(name: "CPNGDeflate", path: "Sources/CPNGDeflate"),
        .target(name: "JournalMediaCore", dependencies: [.product(name: "Logging", package: "swift-log")],
                path: "Sources/JournalMediaCore",
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "JournalMediaHEIF", dependencies: ["JournalMediaCore"], path: "Sources/JournalMediaHEIF",
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "JournalMediaSuggestions", dependencies: ["JournalMediaCore"], path: "Sources/JournalMediaSuggestions",
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "JournalMediaMetadata", dependencies: ["JournalMediaCore", "JournalMediaHEIF", "CExif", "CLibXML2", "CZlib"],
                path: "Sources/JournalMediaMetadata", swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "FuzzSupport", dependencies: ["JournalMediaCore", "JournalMediaMetadata"],
                path: "Targets/FuzzSupport", swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(name: "fuzz-pngdeflate", dependencies: ["FuzzSupport", "CPNGDeflate", "CZlib"],
                          path: "Targets/fuzz-pngdeflate",
                          swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])]),
    ] + targets.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport", "JournalMediaCore", "JournalMediaHEIF", "JournalMediaMetadata",
                                                                  "JournalMediaSuggestions"],
                          path: "Targets/fuzz-\(name)",
                          swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])])
    }
)
