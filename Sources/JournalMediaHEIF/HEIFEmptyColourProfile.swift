import JournalMediaCore

extension HEIFMeta {
    /// The primary image's `colr` box of type `prof` or `rICC` that holds no ICC bytes (the
    /// primary's own, else its first grid tile's): libheif then reports a profile of size 0,
    /// on which libvips' HEIF loader fails without a message (it cannot allocate 0
    /// bytes for the profile). Nil when there is no such box. Read only to explain a failed
    /// header read; costs a look through two items' properties.
    package var emptyPrimaryProfile: (item: Int, type: String)? {
        guard let primary = primaryItem else { return nil }
        for item in [primary] + referenced(from: primary, type: "dimg").prefix(1) {
            for (box, _) in properties(of: item) where box.type == "colr" {
                guard let kind = source.fourCC(box.content), kind == "prof" || kind == "rICC" else { continue }
                if box.end - box.content <= 4 { return (item, kind) }
            }
        }
        return nil
    }
}
