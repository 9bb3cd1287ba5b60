/// Artwork embedded in an audio file (ID3 APIC, MP4 `covr`, FLAC/Ogg picture): the encoded
/// image exactly as stored, for the pipeline to decode with libvips. Found by
/// `MediaFile.coverArt()` from the container's attached-picture stream; nothing is decoded.
public struct CoverArt: Sendable, Equatable {
    /// The encoded picture (JPEG, PNG, …) as stored in the file.
    public var bytes: [UInt8]
    /// libavcodec's name for its codec: `mjpeg`, `png`, `bmp`, …
    public var codec: String
    /// Size from the stream's codec parameters (0 when the container does not say).
    public var width: Int
    public var height: Int

    public init(bytes: [UInt8], codec: String, width: Int, height: Int) {
        self.bytes = bytes
        self.codec = codec
        self.width = width
        self.height = height
    }
}
