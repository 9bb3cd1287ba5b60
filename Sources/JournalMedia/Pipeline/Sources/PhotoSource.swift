import JournalMediaCore
import JournalMediaHEIF
import JournalMediaImaging
import JournalMediaVideo

/// Still images — photos, and icons (vector drawings, small images with real transparency):
/// the header read first (size, orientation, pixel limit), then one decode with
/// shrink-on-load at the size the largest rendition needs.
///
/// Made by the registry for every sniffed image format. Costs a header parse plus one decode.
public struct PhotoSource: FileSource {
    let probe: ProbedAsset
    let bytes: [UInt8]

    public static func accepts(_ probe: ProbedAsset) -> Bool {
        probe.format.map { $0.isImage && !$0.isMetadataOnly } ?? false
    }

    public init(probe: ProbedAsset, content: SourceFile) {
        self.probe = probe
        bytes = content.bytes
    }

    public func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
        guard let format = probe.format else {
            throw AssetError(file: probe.name, stage: .sniff, reason: .unsupportedFormat, message: "not an image")
        }
        result.kind = .photo
        var image = try StillDecoding.decode(bytes, format: format, name: probe.name, plan: plan, into: &result,
                                             sidecarOrientation: probe.sidecarOrientation, reuseJPEG: true)
        if format.handling.still?.animated == true, let spec = plan.renditions.first(where: \.isNotification),
           let limit = spec.byteLimit {
            // An animation's attachment is an animated GIF, pre-made; a single frame, or one
            // that cannot fit, is left to the rendition step as a still.
            let animation = bytes.withUnsafeBytes { raw in
                Result { () throws(VipsError) -> Rendition? in try AnimationAttachment.render(raw, spec: spec, limit: limit) }
            }
            do throws(VipsError) {
                if let rendition = try animation.get() { image.premade.append(rendition) }
            } catch {
                throw AssetError(file: probe.name, stage: .encode, message: "\(spec.role): \(error.message)")
            }
        }
        if StillDecoding.isIcon(format: format, width: image.width, height: image.height,
                                transparent: image.decoded.hasRealTransparency) {
            result.kind = .icon
        }
        return image
    }
}

/// The still-image decode shared by photos and audio cover art.
enum StillDecoding {
    /// Icons (Workout, MotionActivity, StateOfMind, GenericMedia items): vector drawings, and
    /// images with real transparency no larger than `Defaults.iconMaximumSide` of the formats
    /// whose handlers say so (`StillLoading.iconWhenTransparent`: PNG, WebP, GIF).
    static func isIcon(format: SourceFormat, width: Int, height: Int, transparent: Bool) -> Bool {
        isIcon(format.handling, width: width, height: height, transparent: transparent)
    }

    /// `isIcon(format:…)` for what a handler declares.
    static func isIcon(_ description: FormatDescription, width: Int, height: Int, transparent: Bool) -> Bool {
        if description.kind == .vector { return true }
        return description.still?.iconWhenTransparent == true && transparent && max(width, height) <= Defaults.iconMaximumSide
    }

    /// Header, pixel limit, one decode within `plan.timeoutSeconds`; fills size and
    /// orientation into `result`. `sidecarOrientation` (an XMP sidecar's, see
    /// `SidecarOrientation`) is applied when the header reports none. The decode runs on its own thread (`DeadlineThread`) under
    /// its own `DecodeGuard` (the deadline; the caller's, `plan.stop`, as parent), which
    /// keeps `bytes` alive for as long as it runs, even past the deadline. With `reuseJPEG`, a
    /// JPEG that can be its own JPEG rendition (`JPEGFallbackReuse`) is returned as it is in
    /// `SourceImage.premade`, and the decode only reaches the other renditions' size (with
    /// `plan.keepsFullPixels`, a second decode at the full size goes in `fullPixels`).
    static func decode(_ bytes: [UInt8], format: SourceFormat, name: String, plan: DecodePlan,
                       into result: inout AssetResult, sidecarOrientation: Int? = nil,
                       reuseJPEG: Bool = false) throws(AssetError) -> SourceImage {
        func fail(_ stage: ProcessingStage, _ reason: AssetErrorReason?, _ message: String) -> AssetError {
            AssetError(file: name, stage: stage, reason: reason, message: message)
        }
        let decoder = StillDecoders.entry(for: format)
        var header: ImageHeader
        let read = bytes.withUnsafeBytes { raw in
            Result { () throws(VipsError) in try ImageHeaderReader.read(raw, format: format) }
        }
        do throws(VipsError) { header = try read.get() } catch {
            let failure = HeaderReadFailure.error(file: name, format: format, bytes: bytes, libvipsMessage: error.message,
                                                  libheifSeekNoise: decoder.libheifSeekNoise)
            // A file that libvips refuses but the codec's own decoder reads (a HEIC: see
            // heifWithoutLibvips) goes on, with libvips' refusal kept as a warning.
            guard let ownHeader = decoder.headerWithoutLibvips,
                  let own = bytes.withUnsafeBytes({ ownHeader($0) }) else { throw failure }
            header = own
            result.warnings = (result.warnings ?? []) + ["probe: \(failure.message); read from the file's own HEIF boxes instead"]
        }
        if let refusal = decoder.refusal?(bytes) {
            throw fail(.decode, .unsupportedFormat, refusal)
        }
        if let sidecarOrientation, header.orientation == 1, sidecarOrientation != 1 {
            header.orientation = sidecarOrientation
            header.orientationIsExternal = true
            result.orientationSource = SidecarOrientation.source
        }
        result.width = header.displayWidth
        result.height = header.displayHeight
        result.orientation = header.orientation
        // A grid HEIC is decoded a row of tiles at a time (HEIFHEVCDecoder), so its memory
        // does not grow with its pixels: it has its own, higher limit.
        let tiled = header.pixelCount > plan.maxPixels
            && decoder.tileWise.map { tileWise in bytes.withUnsafeBytes(tileWise) } == true
        let limit = tiled ? max(plan.maxPixels, plan.maxTiledPixels) : plan.maxPixels
        guard header.pixelCount <= limit else {
            throw fail(.limits, .overPixelLimit,
                       "\(header.storedWidth)×\(header.storedHeight) is \(header.pixelCount) pixels, over the limit of \(limit)"
                       + (tiled ? " for a grid HEIC (--max-tiled-pixels)" : ""))
        }
        let upscale = format.isVector
        // JPEG renditions the source can be itself (see JPEGFallbackReuse); the decode then
        // only needs the other renditions' size.
        var reused: [Rendition] = []
        if reuseJPEG, FastPaths.enabled {
            reused = bytes.withUnsafeBytes { JPEGFallbackReuse.renditions($0, header: header, specs: plan.renditions) }
        }
        let fullBox = plan.box(width: header.displayWidth, height: header.displayHeight, upscale: upscale)
        let box = reused.isEmpty ? fullBox
            : plan.box(width: header.displayWidth, height: header.displayHeight, upscale: upscale,
                       excluding: Set(reused.map(\.role)))
        var (decoded, warning) = try decodeOnItsThread(bytes, header: header, box: box, upscale: upscale, plan: plan, name: name)
        if warning != nil, !reused.isEmpty {
            // Damage the decoder worked around: the renditions come from the repaired pixels,
            // at the size they need.
            reused = []
            if fullBox != box {
                (decoded, warning) = try decodeOnItsThread(bytes, header: header, box: fullBox, upscale: upscale, plan: plan,
                                                            name: name)
            }
        }
        if let warning {
            result.warnings = (result.warnings ?? []) + ["decode: \(warning) (decoded leniently, as viewers do)"]
        }
        // Vector sources may report a different intrinsic size once rendered; the header's wins.
        var image = SourceImage(decoded: decoded, width: header.displayWidth, height: header.displayHeight,
                                upscale: upscale, premade: reused)
        if plan.keepsFullPixels, !reused.isEmpty, fullBox != box {
            // The pixels are drawn afterwards (a card): at the size the reused rendition has.
            image.fullPixels = try decodeOnItsThread(bytes, header: header, box: fullBox, upscale: upscale, plan: plan,
                                                     name: name).0
        }
        return image
    }

    /// One decode to `box` on its own thread (`DeadlineThread`; a JPEG on this one) under its
    /// own `DecodeGuard` (the plan's deadline; the caller's guard as parent), after `WholeImageDecodeGate`:
    /// the pixels and the decoder's complaint when it decoded past damage.
    private static func decodeOnItsThread(_ bytes: [UInt8], header: ImageHeader, box: (width: Int, height: Int),
                                          upscale: Bool, plan: DecodePlan,
                                          name: String) throws(AssetError) -> (DecodedImage, warning: String?) {
        let format = header.format
        func fail(_ stage: ProcessingStage, _ reason: AssetErrorReason?, _ message: String) -> AssetError {
            AssetError(file: name, stage: stage, reason: reason, message: message)
        }
        // The caller's guard (cancellation, a request's deadline), handed down in the plan.
        let caller = plan.stop
        let gate = bytes.withUnsafeBytes { WholeImageDecodeGate.Hold(header: header, bytes: $0) }
        if let reason = gate.enter(unless: caller), let outer = caller {
            throw outer.error(file: name, stage: .decode, reason: reason)
        }
        // One guard for this decode: its own deadline, and the caller's guard as its parent.
        let stop = DecodeGuard(deadlineSeconds: plan.timeoutSeconds, parent: caller)
        func stopped(_ reason: StopReason) -> AssetError {
            // The caller's stop (its cancellation, a request's deadline) in its own words; its
            // error already says how far the computation got (`noteComputationStopped`
            // reaches the enclosing guards).
            if let outer = caller, let outerReason = outer.stopReason {
                return outer.error(file: name, stage: .decode, reason: outerReason)
            }
            // How far libvips had got when this decode's own deadline stopped it, when it
            // stopped inside a computation (not when the waiting side gave up first).
            let progress = stop.computationStoppedAt.map { ", stopped \($0) % into the decode" } ?? ""
            let limit = String(format: "%g", plan.timeoutSeconds)
            return reason == .cancelled
                ? fail(.decode, .cancelled, "cancelled\(progress)")
                : fail(.decode, .timeout, "decoding the \(format.rawValue.uppercased()) took longer than the "
                       + "\(limit) s limit (--timeout)\(progress)")
        }
        let work = { () -> Result<LenientDecode, VipsError> in
            defer { gate.leave() }
            return bytes.withUnsafeBytes { raw in
                Result { () throws(VipsError) in
                    try lenientPixels(raw, header: header, box: box, upscale: upscale,
                                      limits: PixelLimits(whole: plan.maxPixels, tiled: plan.maxTiledPixels), gate: gate,
                                      stop: stop)
                }
            }
        }
        // A JPEG decode stops by itself when the guard says stop (libjpeg checks it every 64
        // rows, libvips between tiles), so it runs on this thread: no thread start and two
        // hand-overs per asset. Decoders that may not return for a long time get their own.
        // (`install` lends the guard to libvips' worker threads: `VipsInterrupt.connectDrawingStop`.)
        let outcome: DeadlineThread.Outcome<Result<LenientDecode, VipsError>>
            = StillDecoders.entry(for: format).stopsByItself ? .finished(stop.install(work)) : DeadlineThread.run(under: stop, work)
        switch outcome {
        case .stopped(let reason): throw stopped(reason)
        case .finished(.success(let lenient)):
            return (lenient.image, lenient.warning)
        case .finished(.failure(let error)):
            if let reason = stop.stopReason { throw stopped(reason) }
            // Truncated when the file's own framing says it ends early; else the library's words decide.
            let cut = CutShortFile.endsInside(MemoryBytes(bytes: bytes), format: format) != nil
            throw fail(.decode, cut ? .truncated : nil, "cannot decode the \(format.rawValue.uppercased()) pixels: \(error.message)")
        }
    }

    /// A decode and the decoder's complaint, when it had one it could decode past.
    struct LenientDecode {
        var image: DecodedImage
        var warning: String?
    }

    /// Lenient where viewers are, strict where pixels are missing. A JPEG (a codec whose
    /// decoders say `StillDecoder.retriesPastWarnings`) is decoded first
    /// with libvips' `fail_on=warning`: a clean file (nearly all) decodes once. When libjpeg
    /// complains of damage it can decode past — a corrupt restart marker ("found marker 0xd1
    /// instead of RST5"), extraneous bytes before a marker — the JPEG is decoded again with
    /// `fail_on=truncated`, as Pillow, browsers and libvips' own `vips copy` show it, and the
    /// complaint is returned to be listed in the entry's `warnings`. A file whose pixels are
    /// really missing still fails: its data ends before the image does (libjpeg's "Premature
    /// end of JPEG file", libvips' "Premature end of input file"), which libjpeg would fill
    /// with grey. Other formats are decoded with `fail_on=truncated` only. `stop`: the
    /// decode's guard (a stopped first decode is not tried again).
    static func lenientPixels(_ bytes: UnsafeRawBufferPointer, header: ImageHeader, box: (width: Int, height: Int),
                              upscale: Bool, limits: PixelLimits = PixelLimits(),
                              gate: WholeImageDecodeGate.Hold? = nil, stop: DecodeGuard? = nil) throws(VipsError) -> LenientDecode {
        guard StillDecoders.entry(for: header.format).retriesPastWarnings else {
            return LenientDecode(image: try pixels(bytes, header: header, box: box, upscale: upscale, failOn: .truncated,
                                                   limits: limits, gate: gate, stop: stop))
        }
        do {
            return LenientDecode(image: try pixels(bytes, header: header, box: box, upscale: upscale, failOn: .warning,
                                                   stop: stop))
        } catch {
            // The message is this decode's own (VipsRuntime.takeErrorBuffer), so it can decide.
            let missing = AssetErrorReason.inferred(stage: .decode, message: error.message) == .truncated
            if missing || stop?.shouldStop == true { throw error }
            let image = try pixels(bytes, header: header, box: box, upscale: upscale, failOn: .truncated, stop: stop)
            return LenientDecode(image: image, warning: error.message)
        }
    }

    /// The decode: the codec's in-process decoder first when the decoder table has one
    /// (`StillDecoders`: HEICs through libavcodec's HEVC decoder and the project's resampler
    /// when the file is one that path handles, single images and grids, 8–16 bits, no alpha;
    /// AVIFs through libavcodec's libdav1d + swscale or the HDR tone-map, single items without
    /// alpha), else libvips.
    /// `limits`: the largest image decoded whole (libvips) and the largest grid HEIC decoded
    /// tile by tile (`Defaults.maxTiledPixels`); the header was checked against the one that applies.
    /// `gate`: the decode's hold on `WholeImageDecodeGate`, made exclusive before libvips
    /// decodes a HEIC whole that entered shared for the HEVC path; waiting for it ends when
    /// `stop` (the decode's guard) says stop.
    static func pixels(_ bytes: UnsafeRawBufferPointer, header: ImageHeader, box: (width: Int, height: Int),
                       upscale: Bool, failOn: ImageDecoder.DecodeFailure = .truncated,
                       limits: PixelLimits = PixelLimits(), gate: WholeImageDecodeGate.Hold? = nil,
                       stop: DecodeGuard? = nil) throws(VipsError) -> DecodedImage {
        let decoder = StillDecoders.entry(for: header.format)
        let kind = header.format.rawValue.uppercased()
        var declined: String?
        if !upscale, let fast = decoder.fast, FastPaths.allows(fast.path) {
            switch fast.decode(bytes, (max(1, box.width), max(1, box.height)), header, limits, stop) {
            case .decoded(let decoded): return try ImageDecoder.decode(heic: decoded, stop: stop)
            case .declined(let reason): declined = reason
            }
        }
        if !upscale, decoder.tileWise != nil {
            if header.pixelCount > limits.whole {
                // libvips would hold the whole picture: only the tile-wise path may take it.
                throw VipsError(message: "a \(header.storedWidth)×\(header.storedHeight) \(kind) is over the limit of "
                    + "\(limits.whole) pixels for a whole-image decode, and the tile-wise \(decoder.fast?.label ?? "decode") "
                    + (declined.map { "declined it: \($0)" } ?? "is off (\(FastPaths.environmentVariable))"))
            }
            if let reason = gate?.beforeWholeImageDecode(unless: stop) {
                throw VipsError(message: "stopped (\(reason)) waiting to decode the \(kind) whole")
            }
        }
        do {
            return try ImageDecoder.decode(bytes, header: header, width: box.width, height: box.height,
                                           allowUpscale: upscale, failOn: failOn, stop: stop)
        } catch where declined != nil {
            // Both decoders refused: say what the in-process path found unsupported, too.
            throw VipsError(message: "\(error.message) (the \(decoder.fast?.label ?? "decode") declined it: \(declined ?? ""))")
        }
    }
}

/// The pixel limits a still decode runs under: `whole`, the largest image a decoder holds
/// whole (`--max-pixels`), and `tiled`, the largest grid HEIC decoded a row of tiles at a
/// time (`--max-tiled-pixels`).
struct PixelLimits {
    var whole = Defaults.maxPixels
    var tiled = Defaults.maxTiledPixels
}
