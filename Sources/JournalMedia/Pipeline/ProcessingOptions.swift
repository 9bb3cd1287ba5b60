/// What `AssetProcessor` makes of each asset and what it refuses.
public struct ProcessingOptions: Sendable, Equatable {
    /// Renditions to produce, in order. Defaults to `Defaults.renditions`.
    public var renditions: [RenditionSpec]
    /// Largest accepted image, width × height from the header. Defaults to `Defaults.maxPixels`.
    public var maxPixels: Int

    public init(renditions: [RenditionSpec] = Defaults.renditions, maxPixels: Int = Defaults.maxPixels) {
        self.renditions = renditions
        self.maxPixels = maxPixels
    }
}
