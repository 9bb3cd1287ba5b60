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
        var clock = StageClock()
        let format = FormatSniffer.sniff(source.bytes)
        if let format, format.isImage {
            let metadata = HeaderMetadata.read(MemoryBytes(bytes: source.bytes), format: format, url: source.url,
                                               modified: source.modified)
            result.captureDate = metadata.captureDate
            result.contentIdentifier = metadata.contentIdentifier
        }
        result.timings.metadata = clock.lap()
        let failure: AssetError? = source.bytes.withUnsafeBytes { bytes in
            do throws(AssetError) {
                try render(bytes, format: format, into: &result, name: name, source: source)
                return nil
            } catch {
                return error
            }
        }
        result.timings.decode = max(0, clock.lap() - result.timings.analyze - result.timings.encode)
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

    private func render(_ bytes: UnsafeRawBufferPointer, format: SourceFormat?, into result: inout AssetResult,
                        name: String, source: SourceFile) throws(AssetError) {
        guard !bytes.isEmpty else { throw AssetError(file: name, stage: .sniff, message: "empty file") }
        guard let format else {
            throw AssetError(file: name, stage: .sniff,
                             message: "unsupported or unrecognised format (not a media file this toolkit reads)")
        }
        result.format = format
        if format.isVideo || format.isAudio {
            try renderMedia(format, into: &result, name: name, source: source)
        } else {
            result.kind = .photo
            try renderImage(bytes, format: format, into: &result, name: name)
        }
    }

    /// Movies: one `MediaFile` open gives the video's facts, its tags (capture date, Live
    /// Photo identifier) and a poster frame, which feeds the same renditions as a photo.
    /// Audio: the embedded cover art is decoded as an image (`kind: artwork`).
    private func renderMedia(_ format: SourceFormat, into result: inout AssetResult, name: String,
                             source: SourceFile) throws(AssetError) {
        result.kind = format.isVideo ? .video : .artwork
        var opened: Result<MediaFile, AssetError>
        do throws(AssetError) { opened = .success(try MediaFile(path: source.url.path, name: name)) } catch {
            opened = .failure(error)
        }
        // The capture date is recorded even when the file cannot be opened (name, mtime).
        let metadata = HeaderMetadata.read(MemoryBytes(bytes: []), format: format, url: source.url,
                                           modified: source.modified, containerTags: try? opened.get().containerTags)
        result.captureDate = metadata.captureDate
        result.contentIdentifier = metadata.contentIdentifier
        let media = try opened.get()
        if format.isAudio {
            let cover = try media.coverArt()
            guard let coverFormat = FormatSniffer.sniff(cover.bytes), coverFormat.isImage else {
                throw AssetError(file: name, stage: .probe, message: "the embedded artwork is not an image this toolkit reads")
            }
            let failure: AssetError? = cover.bytes.withUnsafeBytes { bytes in
                do throws(AssetError) {
                    try renderImage(bytes, format: coverFormat, into: &result, name: name)
                    return nil
                } catch { return error }
            }
            if let failure { throw failure }
            result.kind = .artwork
            return
        }
        let info = try media.videoInfo()
        result.width = info.displayWidth
        result.height = info.displayHeight
        result.orientation = 1
        guard info.codedWidth * info.codedHeight <= options.maxPixels else {
            throw AssetError(file: name, stage: .limits,
                             message: "\(info.codedWidth)×\(info.codedHeight) video frames are over the limit of \(options.maxPixels) pixels")
        }
        let box = decodeBox(width: info.displayWidth, height: info.displayHeight, upscale: false)
        let poster = try media.posterFrame(PosterOptions(maxDimension: max(box.width, box.height)))
        result.video = VideoRecord(info: info, posterTimeSeconds: poster.timeSeconds, toneMapped: poster.toneMapped)
        let image: VipsImageHandle
        do throws(VipsError) {
            image = try VipsImageHandle.copyingPackedRGB(poster.rgb, width: poster.width, height: poster.height)
        } catch { throw AssetError(file: name, stage: .decode, message: error.message) }
        try finish(DecodedImage(image: image, hasRealTransparency: false), into: &result, name: name,
                   sourceWidth: info.displayWidth, sourceHeight: info.displayHeight, upscale: false)
    }

    /// The size the single decode must reach: the largest box any rendition needs.
    private func decodeBox(width: Int, height: Int, upscale: Bool) -> (width: Int, height: Int) {
        var decodeWidth = 1, decodeHeight = 1
        for spec in options.renditions {
            let size = RenditionRenderer.scaledSize(for: spec, sourceWidth: width, sourceHeight: height, allowUpscale: upscale)
            decodeWidth = max(decodeWidth, size.width)
            decodeHeight = max(decodeHeight, size.height)
        }
        return (decodeWidth, decodeHeight)
    }

    /// Stills (photos, artwork covers, icons): header, pixel limit, one decode.
    private func renderImage(_ bytes: UnsafeRawBufferPointer, format: SourceFormat, into result: inout AssetResult,
                             name: String) throws(AssetError) {
        func fail(_ stage: ProcessingStage, _ message: String) -> AssetError {
            AssetError(file: name, stage: stage, message: message)
        }
        let header: ImageHeader
        do throws(VipsError) { header = try ImageHeaderReader.read(bytes, format: format) } catch { throw fail(.probe, "cannot read the \(format.rawValue.uppercased()) header: \(error.message)") }
        result.width = header.displayWidth
        result.height = header.displayHeight
        result.orientation = header.orientation
        guard header.pixelCount <= options.maxPixels else {
            throw fail(.limits, "\(header.storedWidth)×\(header.storedHeight) is \(header.pixelCount) pixels, over the limit of \(options.maxPixels)")
        }
        let upscale = format.isVector
        let box = decodeBox(width: header.displayWidth, height: header.displayHeight, upscale: upscale)
        let decoded: DecodedImage
        do throws(VipsError) {
            decoded = try ImageDecoder.decode(bytes, header: header, width: box.width, height: box.height, allowUpscale: upscale)
        } catch { throw fail(.decode, "cannot decode the \(format.rawValue.uppercased()) pixels: \(error.message)") }
        if Self.isIcon(format: format, width: header.displayWidth, height: header.displayHeight,
                       transparent: decoded.hasRealTransparency) {
            result.kind = .icon
        }
        // Vector sources may report a different intrinsic size once rendered; the header's wins.
        try finish(decoded, into: &result, name: name, sourceWidth: header.displayWidth,
                   sourceHeight: header.displayHeight, upscale: upscale)
    }

    /// Colours, placeholder and every rendition from the one decoded image.
    private func finish(_ decoded: DecodedImage, into result: inout AssetResult, name: String, sourceWidth: Int,
                        sourceHeight: Int, upscale: Bool) throws(AssetError) {
        var clock = StageClock()
        defer { result.timings.encode = clock.lap() }
        if options.analyzeColors {
            let pixels: AnalysisPixels
            do throws(VipsError) { pixels = try AnalysisPixels(decoded) } catch {
                throw AssetError(file: name, stage: .analyze, message: error.message)
            }
            result.colors = ImageColorAnalyzer.analyze(width: pixels.width, height: pixels.height, rgba: pixels.rgba)
            if let hash = ThumbHash.encode(width: pixels.width, height: pixels.height, rgba: pixels.rgba) {
                result.placeholder = Placeholder(thumbhash: Data(hash).base64EncodedString())
            }
            result.timings.analyze = clock.lap()
        }
        for spec in options.renditions {
            do throws(VipsError) {
                result.renditions.append(try RenditionRenderer.render(
                    decoded, spec: spec, sourceWidth: sourceWidth, sourceHeight: sourceHeight, allowUpscale: upscale))
            } catch { throw AssetError(file: name, stage: .encode, message: "\(spec.role): \(error.message)") }
        }
    }
}
