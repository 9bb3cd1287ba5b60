// swift-tools-version: 6.0
// A backend's view of the library: a package that depends on JournalMedia by path and uses
// only its public API (`make example` builds and runs it; CI builds it).
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(name: "JournalMedia", path: "../..")],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [.product(name: "JournalMedia", package: "JournalMedia")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
