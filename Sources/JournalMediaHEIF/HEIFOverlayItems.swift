import JournalMediaCore

/// A HEIF file's primary image when it is an overlay (`iovl`, ISO/IEC 23008-12 6.6.2.3.3):
/// a canvas of `width`×`height` filled with one colour, and layers (coded images, each an
/// `hvc1` item or a grid, some with an alpha auxiliary image) drawn on it in reference order,
/// the first at the bottom, each at its offset (negative or past the edge: clipped); then the
/// overlay's own transforms (`clap`, `irot`, `imir`).
///
/// Made by `HEIFImageItems.overlay(in:)` once per HEIC whose primary item is an overlay
/// (Nokia's conformance files; rare in cameras) before decoding; costs the `meta` walk plus
/// one copy of the layers' coded bytes. nil for what the HEVC path cannot compose (see there).
package struct HEIFOverlay {
    /// One image drawn on the canvas with its top-left corner at (`left`, `top`).
    package struct Layer {
        package var image: HEIFCodedImage
        /// The layer's alpha (the luma of this auxiliary image), when it has one.
        package var alpha: HEIFCodedImage?
        package var left: Int
        package var top: Int
    }

    /// The canvas before the overlay's transforms.
    package var width: Int
    package var height: Int
    /// `canvas_fill_value`: red, green, blue and alpha, 16 bits each (0…65535).
    package var fill: [Int]
    package var layers: [Layer]
    package var transforms: [HEIFCodedImage.Transform]
    /// The overlay's own `colr`, when it has one (else the layers' say).
    package var nclx: HEIFCodedImage.NCLX?
    package var iccProfile: [UInt8]?

    /// The canvas as a coded image without tiles: its size and transforms, for the code that
    /// fits and turns coded images.
    package var shape: HEIFCodedImage {
        HEIFCodedImage(configuration: [], tiles: [], columns: 1, rows: 1, width: width, height: height, transforms: transforms)
    }

    /// Size after all transforms.
    package var displaySize: (width: Int, height: Int) { shape.displaySize }
}

extension HEIFImageItems {
    /// Most layers an overlay the fast path composes may have.
    static let maximumLayers = 64

    /// The primary image of the HEIF file in `source` when it is an overlay of HEVC images,
    /// else nil (not an overlay, an overlay with an alpha image of its own, an unknown
    /// essential property, a version other than 0,
    /// offsets that do not match the references, a layer that is not an `hvc1` item or grid
    /// of them, or an alpha image that is not one). `maximumCodedBytes` bounds the bytes
    /// copied out of the file, all layers together.
    package static func overlay(in source: some ByteSource, maximumCodedBytes: Int = 256 * 1024 * 1024) -> HEIFOverlay? {
        guard let meta = HEIFMeta(source), let primary = meta.primaryItem, meta.item(primary)?.type == "iovl",
              alphaItem(of: primary, in: meta) == nil, let data = meta.bytes(of: primary, limit: 64 + 16 * maximumLayers) else { return nil }
        let references = meta.referenced(from: primary, type: "dimg")
        guard !references.isEmpty, references.count <= maximumLayers,
              let layout = overlayLayout(data, layers: references.count),
              let own = properties(meta.properties(of: primary), codec: .hevc, in: meta.source),
              let transforms = resolve(own.transforms, width: layout.width, height: layout.height) else { return nil }
        var budget = maximumCodedBytes
        var layers: [HEIFOverlay.Layer] = []
        for (id, offset) in zip(references, layout.offsets) {
            guard let image = image(id, in: meta, codec: .hevc, maximumCodedBytes: budget, allowingAlpha: true) else { return nil }
            budget -= image.tiles.reduce(0) { $0 + $1.count }
            var alpha: HEIFCodedImage?
            if let alphaID = alphaItem(of: id, in: meta) {
                guard let coded = Self.image(alphaID, in: meta, codec: .hevc, maximumCodedBytes: budget) else { return nil }
                budget -= coded.tiles.reduce(0) { $0 + $1.count }
                alpha = coded
            }
            layers.append(HEIFOverlay.Layer(image: image, alpha: alpha, left: offset.x, top: offset.y))
        }
        return HEIFOverlay(width: layout.width, height: layout.height, fill: layout.fill, layers: layers,
                           transforms: transforms, nclx: own.nclx, iccProfile: own.icc)
    }

    /// The ImageOverlay structure: version 0, flags (bit 0: 32-bit fields), the fill colour
    /// (four 16-bit values), the output size and a signed offset pair per layer.
    static func overlayLayout(_ data: [UInt8], layers: Int)
        -> (fill: [Int], width: Int, height: Int, offsets: [(x: Int, y: Int)])? {
        guard data.count >= 2, data[0] == 0 else { return nil }
        let field = data[1] & 1 == 1 ? 4 : 2
        guard data.count >= 10 + field * (2 + 2 * layers) else { return nil }
        func value(_ at: Int) -> Int {
            data[at..<at + field].reduce(0) { $0 << 8 | Int($1) }
        }
        func signed(_ at: Int) -> Int {
            let raw = value(at)
            let bits = field * 8
            return raw >= 1 << (bits - 1) ? raw - (1 << bits) : raw
        }
        let fill = (0..<4).map { Int(data[2 + 2 * $0]) << 8 | Int(data[3 + 2 * $0]) }
        let width = value(10), height = value(10 + field)
        guard width > 0, height > 0 else { return nil }
        let offsets = (0..<layers).map { index in
            (x: signed(10 + field * (2 + 2 * index)), y: signed(10 + field * (3 + 2 * index)))
        }
        return (fill, width, height, offsets)
    }
}
