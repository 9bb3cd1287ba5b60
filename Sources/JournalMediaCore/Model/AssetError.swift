/// The stages an asset passes through, in order. Errors name the stage that failed;
/// `StageTimings` measures the same stages.
public enum ProcessingStage: String, Codable, Sendable, CaseIterable {
    /// Opening or reading the input file (and its SHA-256).
    case read
    /// Recognising the format from the first bytes.
    case sniff
    /// Capture date and Live Photo identifier from the metadata blocks.
    case metadata
    /// Reading the image header (dimensions, orientation) before any pixel is decoded.
    case probe
    /// The header describes an image larger than the pixel limit (or a file over the byte limit).
    case limits
    /// Decoding and shrinking the pixels, colour conversion.
    case decode
    /// Colours and the placeholder from a small copy of the decode.
    case analyze
    /// Resizing, cropping and encoding a rendition.
    case encode
    /// Writing a rendition into the output folder.
    case write
}

/// Why an asset failed, for callers to switch on; the message says the details.
public enum AssetErrorReason: String, Codable, Sendable, CaseIterable {
    /// The file cannot be opened or read (permissions, I/O, not a regular file).
    case unreadable
    /// The file is empty.
    case empty
    /// Not a format the toolkit reads (by content).
    case unsupportedFormat
    /// A movie or audio container libav may not open here (Matroska, playlists, …).
    case unsupportedContainer
    /// A movie whose video codec is not on the decoder allow-list (FFV1, Theora, VP6, …).
    case unsupportedCodec
    /// The file ends before its data does.
    case truncated
    /// The data is damaged or not what its header says.
    case corrupt
    /// A movie without a video stream or a decodable frame.
    case noVideo
    /// An audio file without embedded cover art.
    case noArtwork
    /// More pixels than `maxPixels`.
    case overPixelLimit
    /// More bytes than `maxBytes`.
    case overByteLimit
    /// The work ran past its deadline.
    case timeout
    /// The caller cancelled the work.
    case cancelled
    /// The processor's executor had no room (its queue was full): try again later.
    case busy
    /// A rendition could not be made from decoded pixels.
    case encodeFailed
    /// A file could not be written into the output folder.
    case writeFailed
    /// An input that is not the files' fault (a bundle item's reference, an option).
    case invalidInput
}

/// Why one asset could not be processed: the file, the stage, a reason to switch on and a
/// one-line message. Bad input produces one of these in the asset's result; it never stops
/// a batch. In the manifest: `{"stage": …, "reason": …, "message": …}`.
public struct AssetError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public var file: String
    public var stage: ProcessingStage
    public var reason: AssetErrorReason
    public var message: String

    public init(file: String, stage: ProcessingStage, reason: AssetErrorReason? = nil, message: String) {
        self.file = file
        self.stage = stage
        self.reason = reason ?? AssetErrorReason.inferred(stage: stage, message: message)
        self.message = message.isEmpty ? "\(stage.rawValue) failed without a reason from the library" : message
    }

    /// `FILE: STAGE: MESSAGE`, one line.
    public var description: String {
        "\(file): \(stage.rawValue): \(message.replacingOccurrences(of: "\n", with: " "))"
    }

    // The file is the manifest entry's own `source`; it is not repeated in the JSON.
    private enum CodingKeys: String, CodingKey { case stage, reason, message }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        file = ""
        stage = try c.decode(ProcessingStage.self, forKey: .stage)
        message = try c.decode(String.self, forKey: .message)
        reason = try c.decodeIfPresent(AssetErrorReason.self, forKey: .reason)
            ?? AssetErrorReason.inferred(stage: stage, message: message)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(stage, forKey: .stage)
        try c.encode(reason, forKey: .reason)
        try c.encode(message, forKey: .message)
    }
}

extension AssetErrorReason {
    /// The reason when a call site gives none: the stage's usual one, or `truncated` when
    /// the decoder said so (libvips and libjpeg word it several ways). A fallback for library
    /// message text only (libvips, libav): where the toolkit's own readers know why — a
    /// container that runs past the end (`ContainerBounds`), a still cut short inside its own
    /// framing (`CutShortFile`), a limit, a deadline — the call site passes the reason.
    package static func inferred(stage: ProcessingStage, message: String) -> AssetErrorReason {
        switch stage {
        case .read: return .unreadable
        case .sniff: return .unsupportedFormat
        case .limits: return .overPixelLimit
        case .encode, .analyze: return .encodeFailed
        case .write: return .writeFailed
        case .metadata, .probe, .decode:
            let lowered = message.lowercased()
            if lowered.contains("truncated") || lowered.contains("premature end") || lowered.contains("end of file") {
                return .truncated
            }
            return .corrupt
        }
    }
}
