/// Why rendition specs cannot be used, and where: the spec's position and role, the field,
/// and what is wrong with it. Thrown by `RenditionSpec.validate(_:)`, the one check every
/// way in takes (a preset file, `convert --size/--format/--quality`, a library caller's
/// `Batch`); `description` reads `renditions[1].quality: 101 is out of range 1–100`.
public struct RenditionSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The spec's field that is wrong; nil for a problem of the list (no renditions).
    public enum Field: String, Sendable, Equatable {
        case role, format, formatWhenTransparent, width, height, quality, effort, compression, maxBytes
    }

    /// What is wrong.
    public enum Problem: Sendable, Equatable {
        /// The list is empty.
        case noRenditions
        /// A role that is not lowercase letters, digits and `-`, starting with a letter.
        case malformedRole
        /// A role that an earlier spec of the list already has.
        case duplicateRole
        /// A number outside what the field accepts.
        case outOfRange(Int, ClosedRange<Int>)
        /// A format made only as a notification attachment (gif, mp4, m4a, mp3).
        case attachmentOnlyFormat(RenditionFormat)
        /// A notification attachment in a format Apple's attachments do not take (webp).
        case notAnAttachmentFormat(RenditionFormat)
    }

    /// The spec's position in the list; nil for a problem of the list.
    public var index: Int?
    public var role: String?
    public var field: Field?
    public var problem: Problem

    public init(index: Int?, role: String?, field: Field?, problem: Problem) {
        self.index = index
        self.role = role
        self.field = field
        self.problem = problem
    }

    /// `renditions[1].quality`, `renditions` for the list.
    public var path: String {
        guard let index else { return "renditions" }
        return "renditions[\(index)]" + (field.map { ".\($0.rawValue)" } ?? "")
    }

    /// What is wrong, without the path.
    public var message: String {
        switch problem {
        case .noRenditions: "a preset needs at least one rendition"
        case .malformedRole: "\"\(role ?? "")\" must be lowercase letters, digits and '-', starting with a letter"
        case .duplicateRole: "\"\(role ?? "")\" appears twice"
        case .outOfRange(let value, let range): "\(value) is out of range \(range.lowerBound)–\(range.upperBound)"
        case .attachmentOnlyFormat(let format): "format \(format.rawValue) is made only as a notification attachment"
        case .notAnAttachmentFormat(let format): "\(format.rawValue) is not an attachment format; use jpeg or png"
        }
    }

    public var description: String { "\(path): \(message)" }
}

extension RenditionSpec {
    /// Sides of the box a spec may ask for.
    public static let sides = 1...Defaults.maxRenditionSide
    /// Encoder qualities.
    public static let qualities = 1...100
    /// PNG compression levels (zlib's).
    public static let compressions = 0...9
    /// Byte limits (`maxBytes`): 1 KiB to 1 GiB.
    public static let byteLimits = 1024...(1 << 30)

    /// The efforts `format`'s encoder takes: AVIF 0–9, JPEG XL 1–9, the others 0–6.
    public static func efforts(_ format: RenditionFormat) -> ClosedRange<Int> {
        switch format {
        case .avif: 0...9
        case .jxl: 1...9
        default: 0...6
        }
    }

    /// Checks a list of specs: at least one, unique well-formed roles (they become file
    /// names), still formats (attachment formats only for the `notification` role's
    /// attachments), and every number in its range. Throws the first problem.
    public static func validate(_ specs: [RenditionSpec]) throws(RenditionSpecError) {
        if specs.isEmpty { throw RenditionSpecError(index: nil, role: nil, field: nil, problem: .noRenditions) }
        var seen = Set<String>()
        for (index, spec) in specs.enumerated() {
            func fail(_ field: RenditionSpecError.Field, _ problem: RenditionSpecError.Problem) -> RenditionSpecError {
                RenditionSpecError(index: index, role: spec.role, field: field, problem: problem)
            }
            func check(_ value: Int?, _ range: ClosedRange<Int>, _ field: RenditionSpecError.Field) throws(RenditionSpecError) {
                if let value, !range.contains(value) { throw fail(field, .outOfRange(value, range)) }
            }
            let wellFormed = spec.role.first.map { $0.isASCII && $0.isLowercase } == true
                && spec.role.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
            if !wellFormed { throw fail(.role, .malformedRole) }
            if !seen.insert(spec.role).inserted { throw fail(.role, .duplicateRole) }
            for (format, field) in [(spec.format, RenditionSpecError.Field.format),
                                    (spec.formatWhenTransparent, .formatWhenTransparent)] {
                guard let format else { continue }
                if !RenditionFormat.stillFormats.contains(format) { throw fail(field, .attachmentOnlyFormat(format)) }
                if spec.isNotification, format == .webp { throw fail(field, .notAnAttachmentFormat(format)) }
            }
            try check(spec.width, sides, .width)
            try check(spec.height, sides, .height)
            try check(spec.quality, qualities, .quality)
            try check(spec.effort, efforts(spec.format), .effort)
            try check(spec.compression, compressions, .compression)
            try check(spec.maxBytes, byteLimits, .maxBytes)
        }
    }

    /// Checks a list of specs (`validate(_:)`) and returns the first problem's text, or nil.
    public static func problem(in specs: [RenditionSpec]) -> String? {
        do throws(RenditionSpecError) { try validate(specs) } catch { return error.description }
        return nil
    }
}
