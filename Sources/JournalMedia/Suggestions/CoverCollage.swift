import Foundation
import JournalMediaCore
import JournalMediaImaging

/// One cover collage per card size class for a journal entry's header: up to four of the
/// suggestion's items (photos, Live Photos and videos that succeeded first, then cards, in
/// the bundle's order), each shown by its largest picture (a media item's fallback) or its
/// light cards (the size class that suits its cell), composed by `CardCollage` in the
/// layout that crops them least. Written as `00-cover.coverCollage<Class>.<ext>` (WebP for the tile,
/// JPEG otherwise); none when fewer than two items have a picture.
///
/// Runs once per bundle after its items. Costs one decode per item picture and size class,
/// the composition, and one encode per collage.
struct CoverCollage {
    let options: SuggestionOptions
    let sink: any SuggestionSink

    static let background = "#F2F2F7"

    /// `stop`: the bundle's guard, handed to every decode, drawing and encode.
    func make(_ outputs: [SuggestionItemOutput], stop: DecodeGuard? = nil) -> [OutputCollage] {
        let media = outputs.filter { $0.output == "media" && $0.error == nil }
        let cards = outputs.filter { $0.output == "card" && !$0.cards.isEmpty }
        let chosen = Array((media + cards).prefix(4))
        guard chosen.count >= 2 else { return [] }
        var collages: [OutputCollage] = []
        for size in options.cardSizes {
            var pictures: [[DecodedImage]] = []
            var ids: [String] = []
            for item in chosen {
                let renditions = item.output == "media"
                    ? Array(item.renditions.filter { [.jpeg, .webp, .png].contains($0.format) }
                        .max { $0.width * $0.height < $1.width * $1.height }.map { [$0] } ?? [])
                    : item.renditions.filter { rendition in CardSizeClass.allCases.contains { $0.role(dark: false) == rendition.role } }
                let decoded = renditions.compactMap { decode($0, stop: stop) }
                guard !decoded.isEmpty else { continue }
                pictures.append(decoded)
                ids.append(item.id)
            }
            guard pictures.count >= 2 else { continue }
            let gap = max(2, Int((Double(size.sizeClass == .tile ? 8 : 16) * size.scale).rounded()))
            do {
                let collage = try CardCollage.compose(pictures, width: size.width, height: size.height,
                                                      background: Self.background, gap: gap, stop: stop)
                var spec = RenditionSpec(role: Self.role(size.sizeClass), format: size.sizeClass == .tile ? .webp : .jpeg,
                                         width: size.width, height: size.height)
                if size.sizeClass == .tile { spec.effort = 2 }
                let rendition = try RenditionRenderer.render(collage.image, spec: spec, sourceWidth: size.width,
                                                             sourceHeight: size.height, allowUpscale: false,
                                                             stop: stop)
                let name = "00-cover.\(rendition.role).\(rendition.format.fileExtension)"
                try sink.write(rendition.data, name: name)
                collages.append(OutputCollage(
                    sizeClass: size.sizeClass, itemIds: collage.cells.map { ids[$0.index] }, cells: collage.cells.map(\.box),
                    rendition: OutputRendition(role: rendition.role, path: name, format: rendition.format,
                                               width: rendition.width, height: rendition.height, bytes: rendition.data.count)))
            } catch {
                continue
            }
        }
        return collages
    }

    static func role(_ sizeClass: CardSizeClass) -> String {
        "coverCollage" + sizeClass.rawValue.prefix(1).uppercased() + sizeClass.rawValue.dropFirst()
    }

    /// A rendition written for an item, decoded again.
    private func decode(_ rendition: OutputRendition, stop: DecodeGuard?) -> DecodedImage? {
        guard let data = sink.read(rendition.path) else { return nil }
        return try? ItemWork.decodeRendition(data, width: rendition.width, height: rendition.height,
                                             name: rendition.path, maxPixels: options.maxPixels, stop: stop)
    }
}

/// A cover collage of one size class: which items it shows, where (cells in the collage's
/// pixels, in the order of `itemIds`) and the file.
public struct OutputCollage: Codable, Sendable, Equatable {
    public var sizeClass: CardSizeClass
    public var itemIds: [String]
    public var cells: [CardRect]
    public var rendition: OutputRendition
}
