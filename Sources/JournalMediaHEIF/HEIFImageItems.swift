import JournalMediaCore

/// The coding of the image items an in-process decoder reads: HEVC (`hvc1` items, `hvcC`)
/// for HEIC, AV1 (`av01` items, `av1C`) for AVIF.
package enum HEIFCodec: Sendable {
    case hevc
    case av1

    var itemType: String { self == .hevc ? "hvc1" : "av01" }
}

/// What an in-process decoder needs to know about a HEIF/AVIF file's primary image, read from
/// its `meta` box: the coded tiles (one for a plain `hvc1`/`av01` item, rows × columns for a
/// `grid`), the decoder configuration (`hvcC` or `av1C`), the output size, the transformative
/// properties (`clap`, `irot`, `imir`) in the order they apply, the colour description
/// (`colr`) and, for HDR, the content light level (`clli`).
///
/// Made by `HEIFImageItems.primary(in:)` once per HEIC or AVIF before decoding; costs the
/// `meta` walk plus one copy of the coded tile bytes. Returns nil for everything the fast
/// paths do not handle (so the caller keeps libvips' heifload): items of another codec,
/// alpha, unknown essential properties, missing or inconsistent tiles; for HEVC also PQ/HLG
/// transfers (the AV1 path tone-maps those itself). Any bit depth and chroma format is
/// passed on: the decoders say which pictures they convert.
package struct HEIFCodedImage {
    /// A transformative property, in display order.
    package enum Transform: Equatable {
        /// Keep `width`×`height` pixels from (`left`, `top`) of the image as it is at this step.
        case crop(left: Int, top: Int, width: Int, height: Int)
        /// Rotate anticlockwise by `quarterTurns` × 90°.
        case rotate(quarterTurns: Int)
        /// `horizontal`: swap left and right; otherwise top and bottom.
        case mirror(horizontal: Bool)
    }

    /// `colr` of type `nclx` (ITU-T H.273 code points).
    package struct NCLX: Equatable {
        package var primaries: Int
        package var transfer: Int
        package var matrix: Int
        package var fullRange: Bool
    }

    package var codec: HEIFCodec = .hevc
    /// The `hvcC` or `av1C` payload (decoder configuration record), handed to libavcodec as
    /// extradata.
    package var configuration: [UInt8]
    /// Coded tiles in raster order: HEVC NAL units with the length prefix `hvcC` names, or
    /// AV1 OBUs (low-overhead format, one temporal unit).
    package var tiles: [[UInt8]]
    package var columns: Int
    package var rows: Int
    /// The image before transforms: the grid's output size, or the item's `ispe`.
    package var width: Int
    package var height: Int
    package var transforms: [Transform]
    package var nclx: NCLX?
    /// An ICC profile from `colr` of type `prof` or `rICC`.
    package var iccProfile: [UInt8]?
    /// `clli`'s maximum content light level in cd/m², when the file has one (0 is "unknown").
    package var maximumContentLight: Int?

    /// Size after all transforms.
    package var displaySize: (width: Int, height: Int) {
        var w = width, h = height
        for transform in transforms {
            switch transform {
            case .crop(_, _, let cw, let ch): (w, h) = (cw, ch)
            case .rotate(let turns) where turns % 2 == 1: (w, h) = (h, w)
            default: break
            }
        }
        return (w, h)
    }
}

package enum HEIFImageItems {
    /// Largest number of tiles in a grid the fast path accepts: the format's own limit (256
    /// rows × 256 columns). An iPhone 48 MP photo has 96, a Samsung 200 MP one 768 of 512²;
    /// the tiles' coded bytes are bounded separately (`maximumCodedBytes`).
    static let maximumTiles = 65_536

    /// The primary image of the HEIF file in `source`, or nil when the fast path cannot take it.
    /// `maximumCodedBytes` bounds the tile bytes copied out of the file.
    static func primary(in source: some ByteSource, codec: HEIFCodec = .hevc,
                        maximumCodedBytes: Int = 256 * 1024 * 1024) -> HEIFCodedImage? {
        guard let meta = HEIFMeta(source), let primary = meta.primaryItem else { return nil }
        return image(primary, in: meta, codec: codec, maximumCodedBytes: maximumCodedBytes)
    }

    /// Whether the primary image is a grid of HEVC tiles (`grid` item, `hvc1` tiles), which the
    /// HEVC path decodes a row of tiles at a time: the check behind the grid pixel limit
    /// (`Defaults.maxTiledPixels`). Costs the `meta` walk, no tile bytes.
    package static func isTiledGrid(in source: some ByteSource) -> Bool {
        guard let meta = HEIFMeta(source), let primary = meta.primaryItem, meta.item(primary)?.type == "grid" else { return false }
        let tiles = meta.referenced(from: primary, type: "dimg")
        return !tiles.isEmpty && tiles.allSatisfy { meta.item($0)?.type == HEIFCodec.hevc.itemType }
    }

    /// The primary image and its first thumbnail (an item with a `thmb` reference to the
    /// primary) that the fast path can decode. Nil when the primary itself cannot be taken.
    package static func primaryAndThumbnail(in source: some ByteSource, codec: HEIFCodec = .hevc,
                                            maximumCodedBytes: Int = 256 * 1024 * 1024)
        -> (primary: HEIFCodedImage, thumbnail: HEIFCodedImage?)? {
        guard let meta = HEIFMeta(source), let primary = meta.primaryItem,
              let image = image(primary, in: meta, codec: codec, maximumCodedBytes: maximumCodedBytes) else { return nil }
        let thumbnail = meta.references.first { $0.type == "thmb" && $0.to.contains(primary) }
            .flatMap { Self.image($0.from, in: meta, codec: codec, maximumCodedBytes: maximumCodedBytes) }
        return (image, thumbnail)
    }

    /// The coded image `primary` (an item of `codec`'s type or a grid of them). nil when it has
    /// an alpha auxiliary image, unless `allowingAlpha` (an overlay's layer, whose alpha is
    /// read separately: `alphaItem(of:in:)`).
    static func image<Source: ByteSource>(_ primary: Int, in meta: HEIFMeta<Source>, codec: HEIFCodec,
                                          maximumCodedBytes: Int, allowingAlpha: Bool = false) -> HEIFCodedImage? {
        guard let item = meta.item(primary) else { return nil }
        if !allowingAlpha, alphaItem(of: primary, in: meta) != nil { return nil }
        let tileIDs: [Int]
        var columns = 1, rows = 1
        var outputSize: (Int, Int)?
        switch item.type {
        case codec.itemType:
            tileIDs = [primary]
        case "grid":
            guard let data = meta.bytes(of: primary, limit: 64), let grid = gridLayout(data) else { return nil }
            (rows, columns, outputSize) = (grid.rows, grid.columns, (grid.width, grid.height))
            tileIDs = meta.referenced(from: primary, type: "dimg")
            guard rows * columns <= maximumTiles, tileIDs.count == rows * columns else { return nil }
        default:
            return nil
        }
        // Properties of the primary item: transforms, colour, size; then the tiles' coding.
        guard let own = properties(meta.properties(of: primary), codec: codec, in: meta.source) else { return nil }
        var configuration: [UInt8]?
        var tileSize: (Int, Int)?
        var tiles: [[UInt8]] = []
        var budget = maximumCodedBytes
        for id in tileIDs {
            guard meta.item(id)?.type == codec.itemType,
                  let tile = properties(meta.properties(of: id), codec: codec, in: meta.source),
                  let hvcC = tile.configuration,
                  id == primary || tile.transforms.isEmpty else { return nil }
            // Every tile must be decodable by the one decoder configured from the first.
            if let configuration { guard configuration == hvcC else { return nil } } else { configuration = hvcC }
            if let size = tile.size {
                if let tileSize { guard tileSize == size else { return nil } } else { tileSize = size }
            }
            guard let bytes = meta.bytes(of: id, limit: budget) else { return nil }
            budget -= bytes.count
            tiles.append(bytes)
        }
        guard let configuration else { return nil }
        if item.type == codec.itemType { outputSize = own.size }
        guard let (width, height) = outputSize, width > 0, height > 0 else { return nil }
        if item.type == "grid" {
            // The tiles must cover the output, and not by a whole spare row or column.
            guard let (tileWidth, tileHeight) = tileSize, tileWidth > 0, tileHeight > 0,
                  tileWidth * columns >= width, tileHeight * rows >= height,
                  tileWidth * (columns - 1) < width, tileHeight * (rows - 1) < height else { return nil }
        }
        // Colour: the primary's own `colr`, else the first tile's.
        var nclx = own.nclx, icc = own.icc
        var contentLight = own.contentLight
        if let first = tileIDs.first, let tile = properties(meta.properties(of: first), codec: codec, in: meta.source) {
            if nclx == nil, icc == nil {
                nclx = tile.nclx
                icc = tile.icc
            }
            contentLight = contentLight ?? tile.contentLight
        }
        if codec == .hevc, let nclx, [16, 18].contains(nclx.transfer) { return nil }  // PQ, HLG
        guard let transforms = resolve(own.transforms, width: width, height: height) else { return nil }
        return HEIFCodedImage(codec: codec, configuration: configuration, tiles: tiles, columns: columns, rows: rows,
                              width: width, height: height, transforms: transforms, nclx: nclx, iccProfile: icc,
                              maximumContentLight: contentLight)
    }

    /// The auxiliary image (`auxl` reference) holding `item`'s alpha: its `auxC` type names
    /// alpha (or is missing, which readers take as alpha). Other auxiliary images (depth) are
    /// not alpha.
    static func alphaItem<Source: ByteSource>(of item: Int, in meta: HEIFMeta<Source>) -> Int? {
        for reference in meta.references where reference.type == "auxl" && reference.to.contains(item) {
            let urn = meta.properties(of: reference.from).first { $0.box.type == "auxC" }.flatMap { auxiliaryType($0.box, meta.source) }
            if urn == nil || urn?.contains("alpha") == true || urn == "urn:mpeg:hevc:2015:auxid:1" { return reference.from }
        }
        return nil
    }

    /// The ImageGrid structure (ISO/IEC 23008-12 6.6.2.3.2).
    static func gridLayout(_ data: [UInt8]) -> (rows: Int, columns: Int, width: Int, height: Int)? {
        guard data.count >= 8, data[0] == 0 else { return nil }
        let wide = data[1] & 1 == 1
        let rows = Int(data[2]) + 1, columns = Int(data[3]) + 1
        let source = MemoryBytes(bytes: data)
        let width = wide ? source.uint32BE(4) : source.uint16BE(4)
        let height = wide ? source.uint32BE(8) : source.uint16BE(6)
        guard let width, let height else { return nil }
        return (rows, columns, width, height)
    }

    /// A property list read for the fast path; nil when it holds an essential property it
    /// does not know.
    struct Properties {
        var configuration: [UInt8]?
        var size: (Int, Int)?
        var transforms: [RawTransform] = []
        var nclx: HEIFCodedImage.NCLX?
        var icc: [UInt8]?
        var contentLight: Int?
    }

    enum RawTransform {
        case clap(widthN: Int, widthD: Int, heightN: Int, heightD: Int, horizontalN: Int, horizontalD: Int,
                  verticalN: Int, verticalD: Int)
        case irot(Int)
        case imir(Int)
    }

    private static let understood: Set<String> = ["hvcC", "av1C", "ispe", "irot", "imir", "clap", "colr", "pixi", "auxC",
                                                  "clli"]

    static func properties(_ list: [(box: HEIFBox, essential: Bool)], codec: HEIFCodec,
                                   in source: some ByteSource) -> Properties? {
        var result = Properties()
        for (box, essential) in list {
            if essential, !understood.contains(box.type) { return nil }
            switch box.type {
            case "av1C" where codec == .av1:
                // marker + version 1, profile/level, tier/depth/chroma, delay, then config OBUs.
                guard result.configuration == nil, box.end - box.content >= 4, box.end - box.content <= 64 * 1024,
                      let payload = source.read(box.content, box.end - box.content), payload[0] == 0x81 else { return nil }
                result.configuration = payload
            case "clli":
                if let level = source.uint16BE(box.content), level > 0 { result.contentLight = level }
            case "hvcC" where codec == .hevc:
                guard result.configuration == nil, box.end - box.content >= 23, box.end - box.content <= 64 * 1024,
                      let payload = source.read(box.content, box.end - box.content) else { return nil }
                result.configuration = payload
            case "ispe":
                guard let width = source.uint32BE(box.content + 4), let height = source.uint32BE(box.content + 8) else { return nil }
                result.size = (width, height)
            case "irot":
                guard let angle = source.uint8(box.content) else { return nil }
                result.transforms.append(.irot(Int(angle & 3)))
            case "imir":
                guard let axis = source.uint8(box.content) else { return nil }
                result.transforms.append(.imir(Int(axis & 1)))
            case "clap":
                var values: [Int] = []
                for index in 0..<8 {
                    guard let value = source.uint32BE(box.content + index * 4) else { return nil }
                    // Widths, heights and denominators are unsigned; offsets signed.
                    values.append(index == 4 || index == 6 ? Int(Int32(truncatingIfNeeded: value)) : value)
                }
                result.transforms.append(.clap(widthN: values[0], widthD: values[1], heightN: values[2], heightD: values[3],
                                               horizontalN: values[4], horizontalD: values[5], verticalN: values[6], verticalD: values[7]))
            case "colr":
                guard let kind = source.fourCC(box.content) else { return nil }
                if kind == "nclx", result.nclx == nil, let code = source.read(box.content + 4, 7) {
                    result.nclx = HEIFCodedImage.NCLX(primaries: Int(code[0]) << 8 | Int(code[1]),
                                                      transfer: Int(code[2]) << 8 | Int(code[3]),
                                                      matrix: Int(code[4]) << 8 | Int(code[5]), fullRange: code[6] & 0x80 != 0)
                } else if kind == "prof" || kind == "rICC", result.icc == nil, box.end - box.content > 4,
                          let profile = source.read(box.content + 4, min(box.end - box.content - 4, 4 * 1024 * 1024)) {
                    result.icc = profile
                }
            default:
                break
            }
        }
        return result
    }

    /// The transforms with the clean aperture resolved to whole pixels. The fast path crops
    /// before it scales, so a `clap` is accepted only before any rotation or mirror (the
    /// order MIAF requires) and with an even origin (so chroma planes crop with it).
    static func resolve(_ raw: [RawTransform], width: Int, height: Int) -> [HEIFCodedImage.Transform]? {
        var transforms: [HEIFCodedImage.Transform] = []
        for step in raw {
            switch step {
            case .irot(let turns): if turns != 0 { transforms.append(.rotate(quarterTurns: turns)) }
            case .imir(let axis): transforms.append(.mirror(horizontal: axis == 1))
            case let .clap(wN, wD, hN, hD, xN, xD, yN, yD):
                guard transforms.isEmpty, wD > 0, hD > 0, xD > 0, yD > 0 else { return nil }
                // Centre of the aperture = image centre + offset; left = centre − (width − 1) / 2.
                let cropWidth = Int((Double(wN) / Double(wD)).rounded()), cropHeight = Int((Double(hN) / Double(hD)).rounded())
                let left = Int((Double(xN) / Double(xD) + Double(width - 1) / 2 - Double(cropWidth - 1) / 2).rounded(.down))
                let top = Int((Double(yN) / Double(yD) + Double(height - 1) / 2 - Double(cropHeight - 1) / 2).rounded(.down))
                guard cropWidth > 0, cropHeight > 0, left >= 0, top >= 0, left + cropWidth <= width,
                      top + cropHeight <= height, left % 2 == 0, top % 2 == 0 else { return nil }
                if (left, top, cropWidth, cropHeight) != (0, 0, width, height) {
                    transforms.append(.crop(left: left, top: top, width: cropWidth, height: cropHeight))
                }
            }
        }
        return transforms
    }

    /// The URN of an `auxC` property (a full box holding a NUL-terminated string).
    private static func auxiliaryType(_ box: HEIFBox, _ source: some ByteSource) -> String? {
        let length = min(box.end - box.content - 4, 256)
        guard length > 0, let bytes = source.read(box.content + 4, length) else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
