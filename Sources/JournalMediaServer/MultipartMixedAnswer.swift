import Foundation
import Hummingbird
import JournalMedia

/// One file carried by an answer: a rendition of an asset, or a file a suggestion produced.
struct AnswerFile: Sendable {
    /// The part's `name`: the role for an asset's rendition, the path in `suggestion.json`
    /// for a suggestion's file.
    var name: String
    /// The part's `filename`: the name `convert` or `suggestion` would have written.
    var filename: String
    var mediaType: String
    var data: [UInt8]
}

/// A `multipart/mixed` answer (RFC 2046): first the JSON part (`Content-Disposition: inline;
/// name="…"`), then one `attachment` part per file with its media type, name, file name and
/// length. The boundary is random and checked against every part's bytes. Made once per
/// answer that asked for it in `Accept`; costs one copy of the renditions into the body.
enum MultipartMixedAnswer {
    static func response(json: Data, name: String, files: [AnswerFile]) -> Response {
        let boundary = boundary(avoiding: [Array(json)] + files.map(\.data))
        var body = ByteBuffer()
        body.reserveCapacity(json.count + files.reduce(0) { $0 + $1.data.count + 256 } + 256)
        func part(_ headers: [(String, String)], _ bytes: some Collection<UInt8>) {
            body.writeString("--\(boundary)\r\n")
            for (field, value) in headers { body.writeString("\(field): \(value)\r\n") }
            body.writeString("Content-Length: \(bytes.count)\r\n\r\n")
            body.writeBytes(bytes)
            body.writeString("\r\n")
        }
        part([("Content-Type", "application/json"),
              ("Content-Disposition", "inline; name=\(MediaTypeHeader.quote(name))")], json)
        for file in files {
            part([("Content-Type", file.mediaType),
                  ("Content-Disposition",
                   "attachment; name=\(MediaTypeHeader.quote(file.name)); filename=\(MediaTypeHeader.quote(file.filename))")],
                 file.data)
        }
        body.writeString("--\(boundary)--\r\n")
        return Response(status: .ok, headers: [.contentType: "multipart/mixed; boundary=\(boundary)"],
                        body: ResponseBody(byteBuffer: body))
    }

    /// `jm-` and 32 random hex digits, drawn again in the (vanishingly rare) case a part
    /// holds it.
    static func boundary(avoiding parts: [[UInt8]]) -> String {
        while true {
            let candidate = "jm-" + (0..<4).map { _ in
                let digits = String(UInt32.random(in: 0...UInt32.max), radix: 16)
                return String(repeating: "0", count: 8 - digits.count) + digits
            }.joined()
            let search = ByteSearch(Array("--\(candidate)".utf8))
            let clash = parts.contains { part in part.withUnsafeBytes { search.first(in: $0, from: 0) != nil } }
            if !clash { return candidate }
        }
    }
}

extension RenditionFormat {
    /// The IANA media type of files in this format.
    var mediaType: String { SourceFormat(rawValue: rawValue)?.mediaType ?? "application/octet-stream" }
}
