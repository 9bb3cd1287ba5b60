/// Byte-for-byte substring search over raw bytes, for the sniffing and metadata checks that
/// decide before any text is made (`NotMediaFile`'s XMP markers, `MotionPhotoXMP`'s field
/// names): decoding to `String` and searching costs more than the rest of those checks.
///
/// Runs wherever a header or packet is looked at; a first-byte scan with a compare at each
/// hit, linear in the haystack for the short needles used, no allocation.
package enum ByteSearch {
    /// Whether `needle` occurs in `haystack`.
    package static func contains(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let last = hay.count - pin.count
                var index = 0
                while index <= last {
                    if hay[index] == first {
                        var matched = 1
                        while matched < pin.count && hay[index + matched] == pin[matched] { matched += 1 }
                        if matched == pin.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }
}
