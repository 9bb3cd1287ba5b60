import Foundation
@testable import JournalMediaImaging

/// Hostile or damaged files for the limits tests, made from real encoders' output (libvips in
/// process, or the committed samples) and then cut or patched the way the audit's files were.
enum CraftedFiles {
    /// A `width`×`height` sRGB image of random noise (one noisy band, two constant ones).
    static func noiseImage(width: Int, height: Int) throws -> VipsImageHandle {
        let noise = try VipsOperationCall("gaussnoise")
        try noise.set("width", .int(width))
        try noise.set("height", .int(height))
        try noise.build()
        let bands = try VipsOperationCall("bandjoin_const")
        try bands.set("in", .image(try noise.outputImage()))
        try bands.set("c", .doubles([128, 64]))
        try bands.build()
        let cast = try VipsOperationCall("cast")
        try cast.set("in", .image(try bands.outputImage()))
        try cast.set("format", .nick("uchar"))
        try cast.build()
        let tag = try VipsOperationCall("copy")
        try tag.set("in", .image(try cast.outputImage()))
        try tag.set("interpretation", .nick("srgb"))
        try tag.build()
        return try tag.outputImage()
    }

    /// The same noise as a libvips JPEG (Q75, 4:2:0): a large one takes long to decode.
    static func noiseJPEG(width: Int, height: Int) throws -> [UInt8] {
        let save = try VipsOperationCall("jpegsave_buffer")
        try save.set("in", .image(try noiseImage(width: width, height: height)))
        try save.build()
        return try save.outputBytes()
    }

    /// A `width`×`height` RGB PNG of random noise, saved by libvips without compression so
    /// its pixel data spans several `IDAT` chunks.
    static func noisePNG(width: Int = 256, height: Int = 256) throws -> [UInt8] {
        let save = try VipsOperationCall("pngsave_buffer")
        try save.set("in", .image(try noiseImage(width: width, height: height)))
        try save.set("compression", .int(0))
        try save.build()
        return try save.outputBytes()
    }

    /// The PNG chunks of `png`: type, offset of the length field, data length.
    static func pngChunks(_ png: [UInt8]) -> [(type: String, offset: Int, length: Int)] {
        var chunks: [(String, Int, Int)] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            chunks.append((String(decoding: png[offset + 4..<offset + 8], as: UTF8.self), offset, length))
            offset += 12 + length
        }
        return chunks
    }

    /// `png` with a chunk inserted right after `IHDR`: `type`, declaring `declaredLength`
    /// bytes while carrying only `payload` (the file then ends with the rest of the PNG).
    static func insertingChunk(into png: [UInt8], type: String, declaredLength: UInt32, payload: [UInt8]) -> [UInt8] {
        let afterHeader = 8 + 12 + 13
        var chunk = withUnsafeBytes(of: declaredLength.bigEndian, Array.init)
        chunk += Array(type.utf8) + payload
        return Array(png[..<afterHeader]) + chunk + Array(png[afterHeader...])
    }

    /// Writes `bytes` to `name` in `folder` and returns its URL.
    static func write(_ bytes: [UInt8], _ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}

extension CraftedFiles {
    /// A 64×64 RGB TIFF of noise written by libvips (libtiff), little-endian, in strips.
    static func noiseTIFF() throws -> [UInt8] {
        try tiff(from: try noisePNG(width: 64, height: 64), loader: "pngload_buffer")
    }

    /// `bytes`, an image libvips' `loader` reads, re-encoded by libvips (libtiff) as a
    /// little-endian TIFF in strips, with its bands, interpretation and ICC profile.
    static func tiff(from bytes: [UInt8], loader: String) throws -> [UInt8] {
        try reencoded(bytes, loader: loader, saver: "tiffsave_buffer")
    }

    /// `bytes`, an image libvips' `loader` reads, re-encoded by libvips' `saver` (a
    /// `…save_buffer` operation) with `options` set on it.
    static func reencoded(_ bytes: [UInt8], loader: String, saver: String,
                          options: [(String, VipsArgument)] = []) throws -> [UInt8] {
        try bytes.withUnsafeBytes { buffer in
            let load = try VipsOperationCall(loader)
            try load.set("buffer", .borrowedBlob(buffer))
            try load.build()
            let save = try VipsOperationCall(saver)
            try save.set("in", .image(try load.outputImage()))
            for (name, value) in options { try save.set(name, value) }
            try save.build()
            return try save.outputBytes()
        }
    }

    /// Where IFD0's entry for `tag` is in a little-endian TIFF: the entry's offset, its count,
    /// and the offset of its values (the entry's value field when they fit in four bytes).
    static func tiffEntry(_ tiff: [UInt8], tag: UInt16) -> (entry: Int, count: Int, values: Int)? {
        func number(_ at: Int, _ width: Int) -> Int { (0..<width).reversed().reduce(0) { $0 << 8 | Int(tiff[at + $1]) } }
        let directory = number(4, 4)
        for index in 0..<number(directory, 2) {
            let entry = directory + 2 + index * 12
            guard number(entry, 2) == Int(tag) else { continue }
            let size = number(entry + 2, 2) == 3 ? 2 : 4
            let count = number(entry + 4, 4)
            return (entry, count, size * count <= 4 ? entry + 8 : number(entry + 8, 4))
        }
        return nil
    }

    /// Sets the first LONG value of an entry (as `tiffEntry` found it).
    static func patchTIFFFirstValue(_ tiff: inout [UInt8], entry: (entry: Int, count: Int, values: Int), to value: UInt32) {
        tiff.replaceSubrange(entry.values..<entry.values + 4, with: withUnsafeBytes(of: value.littleEndian, Array.init))
    }
}
