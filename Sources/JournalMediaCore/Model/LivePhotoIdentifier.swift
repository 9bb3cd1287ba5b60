import Foundation

/// The Live Photo content identifier shared by a still (Apple MakerNote tag 0x0011) and its
/// movie (the QuickTime key below): where it is read and how it is compared.
public enum LivePhotoIdentifier {
    /// The movie's QuickTime metadata key.
    public static let quickTimeKey = "com.apple.quicktime.content.identifier"

    /// An identifier with surrounding blanks and NULs removed; nil when empty.
    public static func normalized(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        return trimmed.isEmpty ? nil : trimmed
    }
}
