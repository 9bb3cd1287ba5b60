import Foundation
@testable import JournalMediaImaging

/// Hostile or damaged files for the limits tests, made from real encoders' output (libvips in
/// process, or the committed samples) and then cut or patched the way the audit's files were.
enum CraftedFiles {
    /// A `width`×`height` RGB PNG of random noise, saved by libvips without compression so
    /// its pixel data spans several `IDAT` chunks.
    static func noisePNG(width: Int = 256, height: Int = 256) throws -> [UInt8] {
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
        let save = try VipsOperationCall("pngsave_buffer")
        try save.set("in", .image(try tag.outputImage()))
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
