/// Whether a still ends inside a structure its own framing declares: the file was cut short.
/// Asked when a decoder has failed, so that the asset's reason is `truncated` because the
/// toolkit's own walk of the file says so, not because a library's message happens to
/// contain "premature end" (libpng says "read error", libnsgif "Unexpected end of GIF
/// source data", OpenJPEG "Failed to decode the codestream"). The walks:
/// - PNG: the chunk chain from byte 8 runs past the end before `IEND`;
/// - GIF: the block stream (extensions, image descriptors, colour tables, LZW sub-blocks)
///   runs past the end before the trailer (0x3B);
/// - JPEG: no end-of-image marker (FF D9) after the first start-of-scan (entropy-coded data
///   stuffs FF bytes, so FF D9 there is only ever the marker);
/// - JPEG 2000: a box runs past the end, or the codestream (a `jp2c` box to the end of the
///   file, or a bare codestream) does not end with its EOC marker (FF D9).
/// Other formats: nil (their truncation is caught by `ContainerBounds` before the decode, or
/// only the library knows).
///
/// Runs once per failed decode; costs a walk of the structures (a few reads) and, for a
/// JPEG, one scan of the bytes after the first scan header.
package enum CutShortFile {
    /// What the file ends inside ("PNG chunk IDAT at byte 2048"), nil when it does not end early
    /// (or the format is not one of the four, or the structure is not what its format says).
    package static func endsInside(_ source: some ByteSource, format: SourceFormat) -> String? {
        switch format {
        case .png: png(source)
        case .gif: gif(source)
        case .jpeg: jpeg(source)
        case .jp2: jpeg2000(source)
        default: nil
        }
    }

    static func png(_ source: some ByteSource) -> String? {
        var offset = 8
        for _ in 0..<1_000_000 {
            guard let length = source.uint32BE(offset), let type = source.fourCC(offset + 4) else {
                return offset >= source.size ? "PNG stream at byte \(offset), before IEND" : "PNG chunk header at byte \(offset)"
            }
            let end = offset + 8 + length + 4
            if type == "IEND" { return end > source.size ? "PNG chunk IEND at byte \(offset)" : nil }
            if end > source.size { return "PNG chunk \(type) at byte \(offset)" }
            offset = end
        }
        return nil
    }

    static func gif(_ source: some ByteSource) -> String? {
        guard let flags = source.uint8(10) else { return "GIF header" }
        var offset = 13 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0)
        /// Skips data sub-blocks from `offset`; nil when they run past the end.
        func subBlocks(_ start: Int) -> Int? {
            var at = start
            while let size = source.uint8(at) {
                if size == 0 { return at + 1 }
                at += 1 + Int(size)
            }
            return nil
        }
        for _ in 0..<1_000_000 {
            guard offset <= source.size else { return "GIF data before the trailer" }
            guard let introducer = source.uint8(offset) else { return "GIF stream at byte \(offset), before the trailer" }
            switch introducer {
            case 0x3B: return nil
            case 0x21:
                guard let next = subBlocks(offset + 2) else { return "GIF extension at byte \(offset)" }
                offset = next
            case 0x2C:
                guard let local = source.uint8(offset + 9) else { return "GIF image descriptor at byte \(offset)" }
                let table = local & 0x80 != 0 ? 3 << (Int(local & 7) + 1) : 0
                // The LZW minimum code size, then the image data's sub-blocks.
                guard let next = subBlocks(offset + 10 + table + 1) else { return "GIF image data at byte \(offset)" }
                offset = next
            default: return nil  // not a GIF block: damage, not an early end
            }
        }
        return nil
    }

    static func jpeg(_ source: some ByteSource) -> String? {
        var offset = 2
        while let marker = source.read(offset, 2), marker[0] == 0xFF {
            let code = marker[1]
            if code == 0xFF { offset += 1; continue }  // fill byte
            if code == 0xD8 || (0xD0...0xD7).contains(code) || code == 0x01 { offset += 2; continue }
            if code == 0xD9 { return nil }
            guard let length = source.uint16BE(offset + 2) else { return "JPEG marker segment at byte \(offset)" }
            if code == 0xDA {
                return endMarker(in: source, from: offset + 2 + length) ? nil : "JPEG scan data from byte \(offset)"
            }
            offset += 2 + length
        }
        return offset >= source.size ? "JPEG headers at byte \(offset)" : nil
    }

    static func jpeg2000(_ source: some ByteSource) -> String? {
        guard source.read(0, 2) != [0xFF, 0x4F] else {
            return endsWithEOC(source, from: 0) ? nil : "JPEG 2000 codestream (no EOC marker)"
        }
        var offset = 0
        for _ in 0..<100_000 {
            guard offset < source.size else { return nil }
            guard let length = source.uint32BE(offset), let type = source.fourCC(offset + 4) else {
                return "JPEG 2000 box header at byte \(offset)"
            }
            var size = length
            if length == 1 {
                guard let high = source.uint32BE(offset + 8), let low = source.uint32BE(offset + 12) else {
                    return "JPEG 2000 box header at byte \(offset)"
                }
                size = high << 32 | low
            }
            if length == 0 || (type == "jp2c" && offset + size == source.size) {
                guard type == "jp2c" else { return nil }
                return endsWithEOC(source, from: offset + 8) ? nil : "JPEG 2000 codestream box at byte \(offset)"
            }
            guard size >= 8 else { return nil }  // a malformed length: damage, not an early end
            if size > source.size - offset { return "JPEG 2000 box \(type) at byte \(offset)" }
            offset += size
        }
        return nil
    }

    /// Whether FF D9 occurs at or after `start`.
    private static func endMarker(in source: some ByteSource, from start: Int) -> Bool {
        var at = start
        var previous: UInt8 = 0
        let chunk = 1 << 16
        while at < source.size {
            guard let bytes = source.read(at, min(chunk, source.size - at)) else { return false }
            for byte in bytes {
                if previous == 0xFF && byte == 0xD9 { return true }
                previous = byte
            }
            at += bytes.count
        }
        return false
    }

    private static func endsWithEOC(_ source: some ByteSource, from start: Int) -> Bool {
        guard source.size - start >= 2, let last = source.read(source.size - 2, 2) else { return false }
        // Some writers pad after the codestream; the marker then sits a little before the end.
        return last == [0xFF, 0xD9] || endMarker(in: source, from: max(start, source.size - 64))
    }
}
