import Foundation

/// Turns one input file into an `AssetResult`: read and digest, sniff, capture date from the
/// metadata blocks, header probe and pixel limit, one decode with shrink-on-load, then one resize and encode per rendition.
/// Nothing is written to disk; `Batch` does that.
///
/// Sendable and stateless: call it from as many tasks as you want images in flight. Each
/// call runs on a Dispatch worker thread (libvips is blocking) with one libvips thread.
/// Cost: one file read, one SHA-256, one header parse, one decode at the largest
/// rendition's size, and a resize + encode per rendition.
public struct AssetProcessor: Sendable {
    public let options: ProcessingOptions

    public init(options: ProcessingOptions = ProcessingOptions()) {
        self.options = options
    }

    /// Processes the file at `url`. Never throws: failures are in the result's `error`.
    public func process(fileAt url: URL) async -> AssetResult {
        await BlockingWork.run { self.processBlocking(fileAt: url) }
    }

    /// The same as `process(fileAt:)`, on the calling thread.
    public func processBlocking(fileAt url: URL, displayName: String? = nil) -> AssetResult {
        let name = displayName ?? url.path
        do throws(AssetError) {
            let source = try SourceFile.read(url, displayName: name)
            return process(source, displayName: name)
        } catch {
            var result = AssetResult(source: url)
            result.error = error
            return result
        }
    }

    /// Processes bytes already read (the batch reads and digests first to decide on skipping).
    public func process(_ source: SourceFile, displayName: String? = nil) -> AssetResult {
        let name = displayName ?? source.url.path
        var result = AssetResult(source: source.url)
        result.sha256 = source.sha256
        result.bytes = source.size
        result.modified = source.modified
        if let format = FormatSniffer.sniff(source.bytes.prefix(FormatSniffer.prefixLength)) {
            result.captureDate = CaptureDateReader.captureDate(
                of: MemoryBytes(bytes: source.bytes), format: format, url: source.url, modified: source.modified)
        }
        let failure: AssetError? = source.bytes.withUnsafeBytes { bytes in
            do throws(AssetError) {
                try render(bytes, into: &result, name: name)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            result.renditions = []
            result.colors = nil
            result.placeholder = nil
            result.error = failure
        }
        return result
    }

    /// Icons (Workout, MotionActivity, StateOfMind, GenericMedia items): vector drawings, and
    /// PNG/WebP/GIF images with real transparency no larger than `Defaults.iconMaximumSide`.
    static func isIcon(format: SourceFormat, width: Int, height: Int, transparent: Bool) -> Bool {
        if format.isVector { return true }
        return [.png, .webp, .gif].contains(format) && transparent && max(width, height) <= Defaults.iconMaximumSide
    }

    private func render(_ bytes: UnsafeRawBufferPointer, into result: inout AssetResult, name: String) throws(AssetError) {
        func fail(_ stage: ProcessingStage, _ message: String) -> AssetError {
            AssetError(file: name, stage: stage, message: message)
        }
        guard !bytes.isEmpty else { throw fail(.sniff, "empty file") }
        guard let format = FormatSniffer.sniff(bytes) else {
            throw fail(.sniff, "unsupported or unrecognised format (not an image this toolkit reads)")
        }
        result.format = format
        guard format.isImage else {
            result.kind = format.isVideo ? .video : nil
            throw fail(.decode, "\(format.isVideo ? "video posters" : "audio artwork") are not supported yet")
        }
        result.kind = .photo

        let header: ImageHeader
        do throws(VipsError) { header = try ImageHeaderReader.read(bytes, format: format) } catch { throw fail(.probe, "cannot read the \(format.rawValue.uppercased()) header: \(error.message)") }
        result.width = header.displayWidth
        result.height = header.displayHeight
        result.orientation = header.orientation
        guard header.pixelCount <= options.maxPixels else {
            throw fail(.limits, "\(header.storedWidth)×\(header.storedHeight) is \(header.pixelCount) pixels, over the limit of \(options.maxPixels)")
        }

        let upscale = format.isVector
        var decodeWidth = 1, decodeHeight = 1
        for spec in options.renditions {
            let size = RenditionRenderer.scaledSize(
                for: spec, sourceWidth: header.displayWidth, sourceHeight: header.displayHeight, allowUpscale: upscale)
            decodeWidth = max(decodeWidth, size.width)
            decodeHeight = max(decodeHeight, size.height)
        }
        let decoded: DecodedImage
        do throws(VipsError) {
            decoded = try ImageDecoder.decode(bytes, header: header, width: decodeWidth, height: decodeHeight, allowUpscale: upscale)
        } catch { throw fail(.decode, "cannot decode the \(format.rawValue.uppercased()) pixels: \(error.message)") }
        if Self.isIcon(format: format, width: header.displayWidth, height: header.displayHeight,
                       transparent: decoded.hasRealTransparency) {
            result.kind = .icon
        }

        if options.analyzeColors {
            let pixels: AnalysisPixels
            do throws(VipsError) { pixels = try AnalysisPixels(decoded) } catch {
                throw fail(.analyze, error.message)
            }
            result.colors = ImageColorAnalyzer.analyze(width: pixels.width, height: pixels.height, rgba: pixels.rgba)
            if let hash = ThumbHash.encode(width: pixels.width, height: pixels.height, rgba: pixels.rgba) {
                result.placeholder = Placeholder(thumbhash: Data(hash).base64EncodedString())
            }
        }

        // Vector sources may report a different intrinsic size once rendered; the header's wins.
        for spec in options.renditions {
            do throws(VipsError) {
                result.renditions.append(try RenditionRenderer.render(
                    decoded, spec: spec, sourceWidth: header.displayWidth, sourceHeight: header.displayHeight,
                    allowUpscale: upscale))
            } catch { throw fail(.encode, "\(spec.role): \(error.message)") }
        }
    }
}
