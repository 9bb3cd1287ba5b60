import CVips
import Foundation
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// swift-log and swift-metrics from the library: a debug line and metrics per asset, stage
/// timings at trace, executor gauges, and libvips/libav messages routed into a Logger.
@Suite(.serialized) struct TelemetryTests {
    /// The process's metrics back end for this test run (bootstrap can happen once).
    static var metrics: TestMetrics { TestMetricsBackend.shared.test }

    static func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Int64 {
        (try? metrics.expectCounter(label, dimensions).totalValue) ?? 0
    }

    @Test func eachAssetLogsADebugLineAndStageTimingsAtTrace() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = .trace
        let processor = AssetProcessor(logger: logger)
        _ = await processor.process(fileAt: TestSupport.sample("cmyk.jpg"))
        _ = await processor.process(fileAt: TestSupport.sample("truncated.jpg"))

        let lines = handler.entries.filter { $0.message.description == "asset processed" }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.level == .debug })
        let good = try #require(lines.first { $0.metadata["source"]?.description.hasSuffix("cmyk.jpg") == true })
        #expect(good.metadata["outcome"] == "ok" && good.metadata["kind"] == "photo" && good.metadata["renditions"] == "2")
        let bad = try #require(lines.first { $0.metadata["source"]?.description.hasSuffix("truncated.jpg") == true })
        #expect(bad.metadata["outcome"] == "truncated" && bad.metadata["stage"] == "decode")
        let stages = handler.entries.filter { $0.message.description == "asset stage seconds" }
        #expect(stages.count == 2 && stages.allSatisfy { $0.level == .trace })
        #expect(stages.allSatisfy { Double($0.metadata["decode"]?.description ?? "") ?? 0 > 0 })

        // At the default level (info) the library says nothing.
        let quiet = InMemoryLogHandler()
        _ = await AssetProcessor(logger: Logger(label: "quiet", factory: { _ in quiet }))
            .process(fileAt: TestSupport.sample("cmyk.jpg"))
        #expect(quiet.entries.isEmpty)
    }

    @Test func metricsCountAssetsByKindAndOutcomeAndTimeStages() async throws {
        let metrics = Self.metrics
        let okBefore = Self.counter(AssetTelemetry.assetsCounter, [("kind", "photo"), ("outcome", "ok")])
        let emptyBefore = Self.counter(AssetTelemetry.assetsCounter, [("kind", "unknown"), ("outcome", "empty")])
        let inBefore = Self.counter(AssetTelemetry.inputBytesCounter)
        let outBefore = Self.counter(AssetTelemetry.outputBytesCounter)
        let executor = AssetExecutor(maxConcurrentAssets: 1, label: "telemetry-test")
        let processor = AssetProcessor(executor: executor)
        let good = await processor.process(fileAt: TestSupport.sample("cmyk.jpg"))
        _ = await processor.process(fileAt: TestSupport.sample("empty.png"))

        #expect(Self.counter(AssetTelemetry.assetsCounter, [("kind", "photo"), ("outcome", "ok")]) >= okBefore + 1)
        #expect(Self.counter(AssetTelemetry.assetsCounter, [("kind", "unknown"), ("outcome", "empty")]) >= emptyBefore + 1)
        #expect(Self.counter(AssetTelemetry.inputBytesCounter) - inBefore >= Int64(good.bytes ?? 0))
        #expect(Self.counter(AssetTelemetry.outputBytesCounter) - outBefore >= Int64(good.renditions.reduce(0) { $0 + $1.bytes }))
        let decode = try metrics.expectTimer(AssetTelemetry.stageTimer, [("stage", "decode")])
        #expect(!decode.values.isEmpty && decode.values.allSatisfy { $0 > 0 })
        let running = try metrics.expectGauge("journalmedia_executor_running", [("executor", "telemetry-test")])
        #expect(running.values.contains(1) && running.lastValue == 0, "in flight went 1 then back to 0")
    }

    @Test func libavMessagesGoToTheLogger() throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "native", factory: { _ in handler })
        logger.logLevel = .debug
        let previous = NativeLibraryLog.logger
        NativeLibraryLog.logger = logger
        defer { NativeLibraryLog.logger = previous }
        // A movie cut after its first 3 KB: libav complains while opening it.
        let bytes = Array(try Data(contentsOf: TestSupport.sample("video-rotated-90.mp4")).prefix(3000))
        let url = try MediaSamples.temporaryFile("cut.mp4", bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = AssetProcessor().processBlocking(fileAt: url)
        #expect(result.error != nil)
        let libav = handler.entries.filter { $0.metadata["library"] == "libav" }
        print("libav said: \(libav.map(\.message.description))")
        #expect(!libav.isEmpty)
        #expect(libav.allSatisfy { $0.level == .debug })
    }

    @Test func libvipsMessagesGoToTheLogger() throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "native", factory: { _ in handler })
        logger.logLevel = .trace
        let previous = NativeLibraryLog.logger
        NativeLibraryLog.logger = logger
        defer { NativeLibraryLog.logger = previous }
        for name in ["truncated.jpg", "not-an-image.jpg", "cmyk.jpg", "icon.svg", "scene.gif"] {
            _ = AssetProcessor().processBlocking(fileAt: TestSupport.sample(name))
        }
        // No sample's processing makes libvips warn any more (cmyk.jpg did while libvips'
        // thumbnail converted CMYK: its export step saw the CMYK profile on sRGB pixels), so
        // that warning is asked of libvips directly: an RGB image carrying a CMYK profile
        // through icc_transform, which warns "profile incompatible with image" and falls back.
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample("orientation-8-srgb.jpg")))
        let cmyk = try #require(DirectProfileTransform.cmykProfile)
        try bytes.withUnsafeBytes { buffer in
            let load = try VipsOperationCall("jpegload_buffer")
            try load.set("buffer", .borrowedBlob(buffer))
            try load.build()
            let image = try load.outputImage().materialised()
            cmyk.withUnsafeBytes { vips_image_set_blob_copy(image.pointer, VIPS_META_ICC_NAME, $0.baseAddress, $0.count) }
            _ = try ImageDecoder.iccTransformToSRGB(image, fallbackProfile: "srgb").materialised()
        }
        let vips = handler.entries.filter { $0.metadata["library"] == "libvips" }
        let warnings = vips.filter { $0.metadata["vips.level"] == "warning" }
        print("libvips warnings: \(warnings.map(\.message.description))")
        #expect(warnings.contains { $0.message.description.contains("profile incompatible with image") },
                "an RGB image with a CMYK profile makes libvips warn")
        #expect(warnings.allSatisfy { $0.level == .debug })
        #expect(vips.filter { $0.metadata["vips.level"] == "info" }.allSatisfy { $0.level == .trace })
    }
}
