/// The stage of processing an asset that failed.
public enum ProcessingStage: String, Codable, Sendable {
    /// Opening or reading the input file.
    case read
    /// Recognising the format from the first bytes.
    case sniff
    /// Reading the image header (dimensions, orientation) before any pixel is decoded.
    case probe
    /// The header describes an image larger than the pixel limit.
    case limits
    /// Decoding and shrinking the pixels, colour conversion.
    case decode
    /// Shrinking the decoded image for colours and the placeholder.
    case analyze
    /// Resizing, cropping and encoding a rendition.
    case encode
    /// Writing a rendition into the output folder.
    case write
}

/// Why one asset could not be processed: the file, the stage and a one-line message.
/// Bad input produces one of these in the asset's result; it never stops a batch.
public struct AssetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var stage: ProcessingStage
    public var message: String

    public init(file: String, stage: ProcessingStage, message: String) {
        self.file = file
        self.stage = stage
        self.message = message
    }

    /// `FILE: STAGE: MESSAGE`, one line.
    public var description: String {
        "\(file): \(stage.rawValue): \(message.replacingOccurrences(of: "\n", with: " "))"
    }
}
