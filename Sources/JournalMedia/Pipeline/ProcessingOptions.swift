/// What `AssetProcessor` makes of each asset and what it refuses.
public struct ProcessingOptions: Sendable, Equatable {
    /// Renditions to produce, in order. Defaults to `Defaults.renditions`.
    public var renditions: [RenditionSpec]
    /// Largest accepted image, width × height from the header. Defaults to `Defaults.maxPixels`.
    public var maxPixels: Int
    /// Compute `colors` and the ThumbHash `placeholder` from the decoded image (on by default;
    /// under 2 ms per asset).
    public var analyzeColors: Bool

    public init(renditions: [RenditionSpec] = Defaults.renditions, maxPixels: Int = Defaults.maxPixels,
                analyzeColors: Bool = true) {
        self.renditions = renditions
        self.maxPixels = maxPixels
        self.analyzeColors = analyzeColors
    }
}
