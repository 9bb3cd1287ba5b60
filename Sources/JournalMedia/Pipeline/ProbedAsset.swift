import Foundation
import JournalMediaCore
import JournalMediaMetadata
import JournalMediaVideo

/// One input, probed once: opened once (`open` + `fstat`), its head read once, its format
/// sniffed once, its metadata walked once (EXIF + Apple MakerNote + XMP + PNG text for
/// stills; the container's tags and duration for movies and audio). The Live Photo pairer,
/// the processor, `inspect` and the re-run check all work from this one probe, and every
/// later read (the whole-file load, the SHA-256, libav's demuxing) goes through the same
/// descriptor, so a file replaced on disk mid-run cannot mix two files' data.
///
/// Made by `ProbedAsset.open(_:name:)` (a file) or `init(data:name:modified:)` (bytes in
/// memory, e.g. an upload). Costs one open, a 64 KiB read, a few `pread`s for metadata
/// outside the head, and for movies a libavformat header parse. Holds the descriptor until
/// released; hand it from thread to thread, never use it on two at once.
public final class ProbedAsset: @unchecked Sendable {
    /// The name errors and the manifest use (a batch's relative path, or the path given).
    public let name: String
    /// The file, or nil for bytes in memory.
    public let url: URL?
    /// Size in bytes (from `fstat`), nil when the file could not be opened.
    public let size: Int?
    /// Modification time, seconds since 1970; for bytes in memory, what the caller gave.
    public let modified: Double?
    /// The sniffed format; nil when unreadable, empty or not a format the toolkit reads.
    public let format: SourceFormat?
    /// What the headers say: capture date, Live Photo identifier, declared duration.
    public let captureDate: CaptureDate?
    public let contentIdentifier: String?
    public let durationSeconds: Double?
    /// Where an Android motion photo keeps its MP4 inside this still's file; nil otherwise.
    package let embeddedMotion: EmbeddedMotion?
    /// An XMP sidecar's orientation to apply, when the file has none of its own
    /// (`SidecarOrientation`); nil otherwise.
    public let sidecarOrientation: Int?
    /// Where the headers say the asset was made, and the device (`Location`, `CameraInfo`).
    public let location: Location?
    public let camera: CameraInfo?
    /// Why a stated location (or a value of it) was not trusted, one line each.
    public let metadataWarnings: [String]
    /// Why the file could not be opened (`read`), recognised (`sniff`), or trusted (`probe`:
    /// a still whose container declares more bytes than the file holds); nil otherwise.
    public let error: AssetError?
    /// When the sniffer did not recognise the file and its content is plainly not media
    /// (text, a ZIP, a database…) under a name that does not claim a media format: why
    /// (`NotMediaFile`). A batch lists such files under `ignored` rather than as failures.
    public private(set) var notMedia: String?
    /// The file's path bytes when its name is not valid UTF-8 (`url` cannot spell it); the
    /// name is then percent-escaped (`FileNameEscaping`).
    public private(set) var pathBytes: [UInt8]?
    /// The file's device and inode (from `fstat`); nil for bytes in memory or a failed open.
    public private(set) var identity: FileIdentity?
    /// Where the file must lie when it is reopened (`open(_:…confinedTo:)`); nil: anywhere.
    private var confinement: [[UInt8]]?

    /// Where every later read comes from (nil when the open failed, or while detached).
    private(set) var input: (any ByteSource)?
    /// A movie's or audio file's libav open, made by the probe when asked to keep it.
    private(set) var media: Result<MediaFile, AssetError>?

    private init(name: String, url: URL?, input: (any ByteSource)?, size: Int?, modified: Double?,
                 format: SourceFormat?, metadata: HeaderMetadata?, media: Result<MediaFile, AssetError>?,
                 error: AssetError?) {
        self.name = name
        self.url = url
        self.input = input
        self.size = size
        self.modified = modified
        self.format = format
        self.captureDate = metadata?.captureDate
        self.contentIdentifier = metadata?.contentIdentifier
        self.durationSeconds = metadata?.durationSeconds
        self.embeddedMotion = metadata?.embeddedMotion
        self.sidecarOrientation = metadata?.sidecarOrientation
        self.location = metadata?.location
        self.camera = metadata?.camera
        self.metadataWarnings = metadata?.warnings ?? []
        self.media = media
        self.error = error
    }

    /// Opens and probes the file at `url`; `name` (default: its path) names it in errors.
    /// - Parameter url: the file, opened once, read-only.
    /// - Parameter name: the name errors and the result's `source` carry; nil: the path.
    /// - Parameter keepMediaOpen: for movies and audio, open libav fully (streams probed) and
    ///   keep the open for the processor; false when many probes are made before any is
    ///   processed (a batch pairing Live Photos): only the container header is read then.
    /// - Parameter maxPixels: for movies, libavcodec's allocation cap while probing streams
    ///   (see `MediaFile`); pass the processor's `ProcessingOptions.maxPixels`.
    /// - Parameter pathBytes: the path as the file system spells it, for a name that is not
    ///   valid UTF-8 (`url` then only names it); `name` is then its escaped spelling.
    /// - Parameter sidecars: how the XMP sidecar beside the file is found: `.direct` (a few
    ///   `open`s) for one file, a shared `XMPSidecars.listing()` for a run over folders.
    /// - Parameter roots: where the opened file must lie (`PlannedAsset.confinement`; checked
    ///   after the open, and again after a reopen); nil: anywhere.
    /// - Parameter stop: the asset's guard, handed to libav's open and header parse so that a
    ///   stop or a deadline interrupts them; nil: nothing but libav's own limits stops them.
    public static func open(_ url: URL, name: String? = nil, keepMediaOpen: Bool = true,
                            maxPixels: Int = Defaults.maxPixels, pathBytes: [UInt8]? = nil,
                            sidecars: XMPSidecars = .direct, confinedTo roots: [[UInt8]]? = nil,
                            stop: DecodeGuard? = nil) -> ProbedAsset {
        // `URL`'s path helpers cost more than a small file's whole probe: the path once, as text.
        let path = url.path
        let name = name ?? path
        let file: FileBytes
        let probed: ProbedAsset
        var identity: FileIdentity?
        switch RegularFile.open(pathBytes: pathBytes ?? Array(path.utf8), confinedTo: roots) {
        case .success(let opened):
            file = FileBytes(file: opened)
            identity = opened.identity
            let fileName = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
            probed = probe(file, name: name, url: url, fileName: fileName, modified: file.modified,
                           keepMediaOpen: keepMediaOpen, maxPixels: maxPixels,
                           sidecar: sidecars.sidecar(atPath: path, confinedTo: roots)?.packet, stop: stop)
        case .failure(let error):
            probed = ProbedAsset(name: name, url: url, input: nil, size: nil, modified: nil, format: nil, metadata: nil,
                                 media: nil, error: AssetError(file: name, stage: .read, message: error.message))
        }
        probed.pathBytes = pathBytes
        probed.confinement = roots
        probed.identity = identity
        return probed
    }

    /// Probes bytes already in memory (an upload). `name` is the original file name, which
    /// file-name dates read; `modified` stands in for the file's modification time.
    /// `readsMetadata` false (an on-demand rendition, `ProcessingOptions.readsMetadata`): a
    /// still is sniffed and its container bounds checked, but its metadata is not walked (no
    /// capture date, camera, location, identifier or embedded motion video).
    public convenience init(data: [UInt8], name: String, modified: Double? = nil, maxPixels: Int = Defaults.maxPixels,
                            readsMetadata: Bool = true, stop: DecodeGuard? = nil) {
        self.init(memory: MemoryBytes(bytes: data), name: name, modified: modified, keepMediaOpen: true, maxPixels: maxPixels,
                  readsMetadata: readsMetadata, stop: stop)
    }

    /// Probes memory the caller keeps alive, unchanged, for as long as this probe exists (and
    /// the work done with it): nothing is copied to probe it, a movie is demuxed from it, a
    /// still's `load()` copies it once into the `[UInt8]` the decoders own. For the generic
    /// byte entry points (`AssetProcessor.process(data:)`, `CaptureDateReader.inspect(data:)`),
    /// which end the probe's life inside `withContiguousStorageIfAvailable`.
    package convenience init(borrowing bytes: UnsafeRawBufferPointer, name: String, modified: Double?,
                             keepMediaOpen: Bool, maxPixels: Int = Defaults.maxPixels, readsMetadata: Bool = true,
                             stop: DecodeGuard? = nil) {
        self.init(memory: BorrowedBytes(bytes: bytes), name: name, modified: modified, keepMediaOpen: keepMediaOpen,
                  maxPixels: maxPixels, readsMetadata: readsMetadata, stop: stop)
    }

    private convenience init(memory: any ByteSource, name: String, modified: Double?, keepMediaOpen: Bool, maxPixels: Int,
                             readsMetadata: Bool, stop: DecodeGuard?) {
        let probed = ProbedAsset.probe(memory, name: name, url: nil, modified: modified,
                                       keepMediaOpen: keepMediaOpen, maxPixels: maxPixels, readsMetadata: readsMetadata,
                                       stop: stop)
        self.init(name: name, url: nil, input: probed.input, size: probed.size, modified: modified,
                  format: probed.format, metadata: HeaderMetadata(captureDate: probed.captureDate,
                                                                  contentIdentifier: probed.contentIdentifier,
                                                                  durationSeconds: probed.durationSeconds,
                                                                  embeddedMotion: probed.embeddedMotion,
                                                                  sidecarOrientation: probed.sidecarOrientation,
                                                                  location: probed.location, camera: probed.camera,
                                                                  warnings: probed.metadataWarnings),
                  media: probed.media, error: probed.error)
    }

    private static func probe(_ input: any ByteSource, name: String, url: URL?, fileName: String? = nil, modified: Double?,
                              keepMediaOpen: Bool, maxPixels: Int, sidecar: XMPPacket? = nil,
                              readsMetadata: Bool = true, stop: DecodeGuard? = nil) -> ProbedAsset {
        let fileName = fileName ?? url?.lastPathComponent ?? (name as NSString).lastPathComponent
        func made(format: SourceFormat?, metadata: HeaderMetadata?, media: Result<MediaFile, AssetError>? = nil,
                  error: AssetError?) -> ProbedAsset {
            ProbedAsset(name: name, url: url, input: input, size: input.size, modified: modified, format: format,
                        metadata: metadata, media: media, error: error)
        }
        guard input.size > 0 else {
            let probed = made(format: nil, metadata: nil,
                              error: AssetError(file: name, stage: .sniff, reason: .empty, message: "empty file"))
            probed.notMedia = NotMediaFile.reason(head: [], fileName: fileName)
            return probed
        }
        guard let head = input.read(0, min(input.size, FormatSniffer.prefixLength)),
              var format = FormatSniffer.sniff(head) else {
            let probed = made(format: nil, metadata: nil, error: AssetError(
                file: name, stage: .sniff,
                message: "unsupported or unrecognised format (not a media file this toolkit reads)"))
            probed.notMedia = NotMediaFile.reason(head: input.read(0, min(input.size, FormatSniffer.prefixLength)) ?? [],
                                                  fileName: fileName)
            return probed
        }
        // A raw file whose IFD0 lies past the sniffed head (DNG, NEF, ARW) looked like a TIFF.
        if format == .tiff { format = RawPreview.refinedTIFF(input) }
        if format.isImage {
            // Declared sizes the file cannot hold are refused before any decoder sees them
            // (decoders allocate what headers declare). The metadata walk below bounds its
            // own reads, so the capture date is still reported.
            let overrun = ContainerBounds.check(input, format: format).map {
                AssetError(file: name, stage: .probe, reason: .truncated, message: $0.message)
            }
            let metadata = readsMetadata
                ? HeaderMetadata.read(input, format: format, fileName: fileName, modified: modified, sidecar: sidecar)
                : nil
            return made(format: format, metadata: metadata, error: overrun)
        }
        if keepMediaOpen {
            let media: Result<MediaFile, AssetError>
            do throws(AssetError) { media = .success(try MediaFile(input: input, name: name, maxPixels: maxPixels, stop: stop)) } catch {
                media = .failure(error)
            }
            let opened = try? media.get()
            let metadata = HeaderMetadata.read(
                input, format: format, fileName: fileName, modified: modified, sidecar: sidecar,
                container: opened.map { ContainerMetadataReader.Metadata(
                    tags: $0.containerTags, durationSeconds: $0.durationSeconds,
                    leadingVideoPackets: $0.leadingVideoPackets()) })
            return made(format: format, metadata: metadata, media: media, error: nil)
        }
        let metadata = HeaderMetadata.read(input, format: format, fileName: fileName, modified: modified,
                                           sidecar: sidecar, container: ContainerMetadataReader.read(input, stop: stop))
        return made(format: format, metadata: metadata, error: nil)
    }

    /// The MP4 embedded in this motion photo, probed through a window onto this file's
    /// descriptor (`ByteSlice`): libav sees only the video's bytes. Named `NAME#motion`; its
    /// capture date falls back to the still's file time. Nil when the still has no embedded
    /// video or its file cannot be read.
    func embeddedMotionProbe(maxPixels: Int = Defaults.maxPixels, stop: DecodeGuard? = nil) -> ProbedAsset? {
        guard let embeddedMotion, let input = try? openInput() else { return nil }
        let slice = ByteSlice(input, offset: embeddedMotion.offset, length: embeddedMotion.length)
        let name = "\(self.name)#motion"
        return ProbedAsset.probe(slice, name: name, url: nil, modified: modified, keepMediaOpen: true, maxPixels: maxPixels,
                                 stop: stop)
    }

    /// The movie's or audio file's libav open: the probe's own when it kept one (handed over
    /// once) with a pixel cap no larger than `maxPixels`, else a new one through the same
    /// descriptor, its decoders capped at `maxPixels`.
    /// `timeLimit` bounds the open and each poster candidate (libav's interrupt callback);
    /// `stop`, the decode's guard, ends them too.
    func takeMedia(maxPixels: Int = Defaults.maxPixels, timeLimit: Double = Defaults.decodeTimeoutSeconds,
                   stop: DecodeGuard?) throws(AssetError) -> MediaFile {
        if let media {
            self.media = nil
            if case .success(let kept) = media, kept.maxPixels > maxPixels {
                return try MediaFile(input: try openInput(), name: name, maxPixels: maxPixels, timeLimit: timeLimit, stop: stop)
            }
            let kept = try media.get()
            kept.timeLimit = timeLimit
            kept.stop = stop
            return kept
        }
        return try MediaFile(input: try openInput(), name: name, maxPixels: maxPixels, timeLimit: timeLimit, stop: stop)
    }

    /// Closes the file after probing (a batch larger than its descriptor budget); the next
    /// read reopens it by path and fails if its size or modification time changed meanwhile.
    func detach() {
        guard url != nil, error == nil else { return }
        input = nil
        media = nil
    }

    /// Closes the descriptor (and any libav open) once the batch has processed the file,
    /// so a batch never holds more descriptors than its budget: a probe reopened by path
    /// after `detach()` used to keep its new descriptor to the end of the run, and a batch
    /// larger than the budget ran out of descriptors 256 files later.
    func closeAfterProcessing() {
        input = nil
        media = nil
    }

    /// The probe's input, reopened when detached.
    private func openInput() throws(AssetError) -> any ByteSource {
        if let input { return input }
        guard let url, error == nil else { throw AssetError(file: name, stage: .read, message: "the file is not open") }
        switch RegularFile.open(pathBytes: pathBytes ?? Array(url.path.utf8), confinedTo: confinement) {
        case .success(let file):
            guard file.size == size, file.modified == modified, identity == nil || file.identity == identity else {
                close(file.descriptor)
                throw AssetError(file: name, stage: .read, message: "the file changed during the run")
            }
            let reopened = FileBytes(file: file, cacheHead: false)
            input = reopened
            return reopened
        case .failure(let failure):
            throw AssetError(file: name, stage: .read, message: failure.message)
        }
    }

    /// Frees what a waiting probe need not hold: the cached head and a kept libav open.
    func releaseBuffers() {
        (input as? FileBytes)?.dropHead()
        media = nil
    }

    /// Reads the content and its SHA-256 through the probe's descriptor: a still whole into
    /// memory (refused beyond `maxBytes`, checked from `fstat` before anything is read); a
    /// movie or audio file streamed through the digest, only its head kept (libav reads the
    /// rest itself). Throws `read` (I/O) or `limits` (too large).
    /// - Parameter maxBytes: the largest still read into memory, in bytes.
    /// - Parameter knownSHA256: the content's SHA-256 (hex) when the caller computed it from
    ///   these same bytes in memory (an on-demand route hashes for its `ETag`): not hashed again.
    ///   Ignored for a file, whose bytes are read (and hashed) here.
    public func load(maxBytes: Int = Defaults.maxBytes, knownSHA256: String? = nil) throws(AssetError) -> SourceFile {
        if let error, error.stage == .read { throw error }
        let input = try openInput()
        let size = input.size
        let streamed = format.map { $0.isVideo || $0.isAudio } ?? false
        if !streamed && size > maxBytes {
            throw AssetError(file: name, stage: .limits, reason: .overByteLimit,
                             message: "\(size) bytes is over the limit of \(maxBytes) bytes for a still image")
        }
        if let memory = input as? MemoryBytes {
            return SourceFile(url: url, bytes: memory.bytes, size: size,
                              sha256: knownSHA256 ?? ContentDigest.sha256(memory.bytes))
        }
        let digest = ContentDigest()
        func failure(_ code: Int) -> AssetError {
            AssetError(file: name, stage: .read, message: String(cString: strerror(Int32(clamping: -code))))
        }
        if streamed {
            var chunk = [UInt8](repeating: 0, count: SourceFile.chunkLength)
            var offset = 0
            while true {
                let n = chunk.withUnsafeMutableBytes { input.copy(into: $0, at: offset) }
                if n < 0 { throw failure(n) }
                if n == 0 { break }
                chunk.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                offset += n
            }
            let head = input.read(0, min(size, SourceFile.mediaHeadLength)) ?? []
            return SourceFile(url: url, bytes: head, size: offset, sha256: digest.hex())
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let n = bytes.withUnsafeMutableBytes { input.copy(into: $0, at: 0) }
        if n < 0 { throw failure(n) }
        if n < size { bytes.removeLast(size - n) }
        bytes.withUnsafeBytes { digest.update($0) }
        return SourceFile(url: url, bytes: bytes, size: bytes.count, sha256: digest.hex())
    }
}

extension SourceFile {
    /// Opens, probes and loads `url` (a convenience over `ProbedAsset`). Throws an
    /// `AssetError` at stage `read` naming the file.
    public static func read(_ url: URL, displayName: String? = nil) throws(AssetError) -> SourceFile {
        try ProbedAsset.open(url, name: displayName, keepMediaOpen: false).load(maxBytes: Int.max)
    }
}
