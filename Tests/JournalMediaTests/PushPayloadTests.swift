import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaNotifications

/// `PushPayload`: the APNs JSON, its validation, and the 4,096-byte limit met by shortening
/// the body only, never inside a grapheme cluster.
@Suite struct PushPayloadTests {
    static let link = "https://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13"

    func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func full(body: String?, title: String = "A walk by the river") throws -> PushPayload {
        try PushPayload(
            content: PushContent(title: title, subtitle: "Sunday, 14 September", body: body,
                                 attachmentURL: "https://cdn.example.com/covers/walk.thumbnail.jpg",
                                 suggestionLink: Self.link),
            delivery: PushDelivery(category: "JOURNALING_REMINDER", threadID: "moments",
                                   interruptionLevel: .timeSensitive, relevanceScore: 0.75,
                                   targetContent: .content("journal-editor")))
    }

    @Test func everyFieldLandsUnderItsAPNsKey() throws {
        let encoded = try full(body: "You walked 5.2 km along the river. Write about it?").encoded()
        let root = try object(encoded.data)
        #expect(Set(root.keys) == ["aps", PushPayload.attachmentURLKey, PushPayload.suggestionLinkKey])
        #expect(root["attachment-url"] as? String == "https://cdn.example.com/covers/walk.thumbnail.jpg")
        #expect(root["suggestion-link"] as? String == Self.link)
        let aps = try #require(root["aps"] as? [String: Any])
        #expect(aps["alert"] as? [String: String] == [
            "title": "A walk by the river", "subtitle": "Sunday, 14 September",
            "body": "You walked 5.2 km along the river. Write about it?",
        ])
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(aps["category"] as? String == "JOURNALING_REMINDER")
        #expect(aps["thread-id"] as? String == "moments")
        #expect(aps["interruption-level"] as? String == "time-sensitive")
        #expect(aps["relevance-score"] as? Double == 0.75)
        #expect(aps["target-content-id"] as? String == "journal-editor")
        #expect(encoded.shortening == nil)
        #expect(encoded.byteCount == encoded.data.count)
        #expect(!String(decoding: encoded.data, as: UTF8.self).contains("\\/"), "slashes are not escaped")
        #expect(encoded.warnings.count == 1 && encoded.warnings[0].hasPrefix("time-sensitive"))
    }

    @Test func mutableContentOnlyWithAnAttachment() throws {
        let plain = try PushPayload(content: PushContent(body: "Time to reflect on your week."))
        let aps = try #require(try object(plain.encoded().data)["aps"] as? [String: Any])
        #expect(Set(aps.keys) == ["alert"])
        #expect(String(decoding: try plain.encoded().data, as: UTF8.self) == #"{"aps":{"alert":{"body":"Time to reflect on your week."}}}"#)
    }

    @Test func interruptionLevelsAreTheFourOfApple() throws {
        #expect(PushInterruptionLevel.allCases.map(\.rawValue) == ["passive", "active", "time-sensitive", "critical"])
        for level in PushInterruptionLevel.allCases {
            #expect(try PushInterruptionLevel.parse(level.rawValue) == level)
            let payload = try PushPayload(content: PushContent(title: "t"), delivery: PushDelivery(interruptionLevel: level))
            let aps = try #require(try object(payload.encoded().data)["aps"] as? [String: Any])
            #expect(aps["interruption-level"] as? String == level.rawValue)
            #expect(payload.warnings.isEmpty == (level == .passive || level == .active))
        }
        for bad in ["Active", "urgent", "time_sensitive", "timeSensitive", ""] {
            #expect(throws: PushPayloadError.invalidInterruptionLevel(bad)) { try PushInterruptionLevel.parse(bad) }
        }
    }

    @Test func relevanceScoreIsZeroToOne() throws {
        for score in [0, 0.5, 1] {
            let payload = try PushPayload(content: PushContent(title: "t"), delivery: PushDelivery(relevanceScore: score))
            let aps = try #require(try object(payload.encoded().data)["aps"] as? [String: Any])
            #expect(aps["relevance-score"] as? Double == score)
        }
        for bad in [-0.01, 1.01, 2, Double.infinity] {
            #expect(throws: PushPayloadError.relevanceScore(bad)) {
                try PushPayload(content: PushContent(title: "t"), delivery: PushDelivery(relevanceScore: bad))
            }
        }
        #expect(throws: PushPayloadError.self) { try PushPayload(content: PushContent(title: "t"), delivery: PushDelivery(relevanceScore: .nan)) }
    }

    @Test func fieldsAreValidated() throws {
        #expect(throws: PushPayloadError.emptyAlert) { try PushPayload(content: PushContent(attachmentURL: "https://a.example/x.jpg")) }
        #expect(throws: PushPayloadError.emptyField("category")) {
            try PushPayload(content: PushContent(title: "t"), delivery: PushDelivery(category: ""))
        }
        #expect(throws: PushPayloadError.emptyField("body")) { try PushPayload(content: PushContent(title: "t", body: "")) }
        #expect(throws: PushPayloadError.emptyTargetContent) {
            try PushPayload(content: PushContent(title: "t"), delivery: PushDelivery(targetContent: .content("")))
        }
        for bad in ["cdn.example.com/x.jpg", "ftp://cdn.example.com/x.jpg", "https:///x.jpg", "not a url"] {
            #expect(throws: PushPayloadError.self, "\(bad)") { try PushPayload(content: PushContent(title: "t", attachmentURL: bad)) }
        }
        let http = try PushPayload(content: PushContent(title: "t", attachmentURL: "http://cdn.example.com/x.jpg"))
        #expect(http.warnings.count == 1 && http.warnings[0].contains("App Transport Security"))
    }

    /// App Clips: the experience URL is the target content id and must be https; an
    /// attachment is allowed but warned about (no service extension in an App Clip).
    @Test func appClipExperienceURLIsTheTargetContentID() throws {
        let experience = "https://appclip.example.com/cafe/42"
        let payload = try PushPayload(content: PushContent(title: "Your table is ready", attachmentURL: "https://cdn.example.com/cafe.jpg"),
                                      delivery: PushDelivery(targetContent: .appClipExperience(experience)))
        let aps = try #require(try object(payload.encoded().data)["aps"] as? [String: Any])
        #expect(aps["target-content-id"] as? String == experience)
        #expect(payload.warnings.contains { $0.contains("App Clip") })
        #expect(throws: PushPayloadError.invalidURL(field: "App Clip experience URL", value: "http://appclip.example.com/cafe/42",
                                                     requirement: "an absolute https URL with a host")) {
            try PushPayload(content: PushContent(title: "t"), delivery: PushDelivery(targetContent: .appClipExperience("http://appclip.example.com/cafe/42")))
        }
    }

    /// Checks one fitted payload: within the limit, valid JSON, every key but the body
    /// unchanged, the body a whole-character prefix of the original plus "…", and as long
    /// as possible.
    func checkFitted(_ payload: PushPayload, limit: Int = 4096) throws {
        let original = try #require(payload.content.body)
        let encoded = try payload.encoded(maxBytes: limit)
        #expect(encoded.data.count <= limit)
        let root = try object(encoded.data)
        let aps = try #require(root["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: String])
        let unshortened = try object(payload.body(original).encoded())
        let unshortenedAPS = try #require(unshortened["aps"] as? [String: Any])
        // Structure intact: the same keys everywhere, the same values except the body.
        #expect(Set(root.keys) == Set(unshortened.keys) && Set(aps.keys) == Set(unshortenedAPS.keys))
        #expect(alert["title"] == payload.content.title && alert["subtitle"] == payload.content.subtitle)
        #expect(root["suggestion-link"] as? String == payload.content.suggestionLink)
        #expect(aps["relevance-score"] as? Double == payload.delivery.relevanceScore)
        let body = try #require(alert["body"])
        #expect(body == encoded.body)
        guard let shortening = encoded.shortening else {
            #expect(body == original)
            #expect(payload.body(original).encoded().count <= limit)
            return
        }
        #expect(payload.body(original).encoded().count > limit)
        #expect(body.hasSuffix(PushPayload.ellipsis))
        let kept = String(body.unicodeScalars.dropLast())
        let characters = Array(original)
        // A prefix of whole characters: the same scalars as the original's first N characters.
        #expect(kept.count == shortening.keptCharacters && characters.count == shortening.originalCharacters)
        #expect(Array(kept.unicodeScalars) == Array(String(characters[..<kept.count]).unicodeScalars),
                "the body was cut inside a character")
        // As long as possible: one more character (when none was trimmed as white space) is over.
        if kept.count > 0, kept.count < characters.count, !characters[kept.count].isWhitespace, !characters[kept.count - 1].isWhitespace {
            let longer = String(characters[...kept.count]) + PushPayload.ellipsis
            #expect(payload.body(longer).encoded().count > limit, "a longer body would have fitted")
        }
    }

    @Test func bodiesAreShortenedAtGraphemeBoundariesAtTheEdge() throws {
        let pieces = [
            "👩‍👩‍👧‍👦",            // ZWJ family: 7 scalars, 25 bytes, one character
            "🇫🇷",                   // a flag: two regional indicators
            "👍🏽",                   // skin-tone modifier
            "e\u{301}\u{323}",      // e with two combining marks
            "\u{1100}\u{1161}\u{11A8}", // Hangul syllable from conjoining jamo
            "ก\u{E33}",             // Thai with SARA AM
            "\"\\\n",               // characters JSON escapes (2 bytes each)
            "a ",
        ]
        // Title lengths from 0 to 40 move the cut across every position of the pieces.
        for titleLength in 0...40 {
            for (i, piece) in pieces.enumerated() {
                let rest = pieces[(i + 1)...] + pieces[...i]
                let body = String(repeating: piece + rest.joined(), count: 90)
                try checkFitted(try full(body: body, title: "Moment " + String(repeating: "x", count: titleLength)))
            }
        }
        // All emoji, all combining.
        try checkFitted(try full(body: String(repeating: "👩‍👩‍👧‍👦", count: 400)))
        try checkFitted(try full(body: String(repeating: "o\u{308}\u{304}", count: 2000)))
    }

    @Test func exactlyAtTheLimitIsKeptAndOneByteMoreIsShortened() throws {
        let empty = try full(body: "x").body("").encoded().count
        let fits = String(repeating: "é", count: (4096 - empty) / 2) + String(repeating: "x", count: (4096 - empty) % 2)
        let atLimit = try full(body: fits).encoded()
        #expect(atLimit.byteCount == 4096)
        #expect(atLimit.shortening == nil && atLimit.body == fits)

        let over = try full(body: fits + "x").encoded()
        #expect(over.byteCount <= 4096)
        #expect(over.shortening?.unshortenedBytes == 4097)
        #expect(over.body?.hasSuffix("…") == true)
        try checkFitted(try full(body: fits + "x"))

        // Trailing white space is not kept before the ellipsis.
        let spaced = try full(body: fits.prefix(fits.count - 3) + "   word").encoded()
        #expect(spaced.body?.hasSuffix(" …") == false)
        #expect(spaced.byteCount <= 4096)
    }

    @Test func aFixedPartOverTheLimitFailsClearly() throws {
        let title = String(repeating: "t", count: 4100)
        let payload = try full(body: "short", title: title)
        let withoutBody = payload.body("").encoded().count
        #expect(throws: PushPayloadError.fixedPartTooLarge(bytes: withoutBody, limit: 4096)) { try payload.encoded() }
        // Room for the structure but not for "…": still the same error.
        let justOver = try full(body: "a long body that cannot be kept", title: "t").body("").encoded().count
        let tight = try full(body: "a long body that cannot be kept", title: String(repeating: "t", count: 4096 - justOver + 1 - 2))
        #expect(throws: PushPayloadError.fixedPartTooLarge(bytes: 4094, limit: 4096)) { try tight.encoded() }
        // No body at all and too big.
        let noBody = try PushPayload(content: PushContent(title: title))
        #expect(throws: PushPayloadError.fixedPartTooLarge(bytes: try #require(noBody.body(nil).encoded().count), limit: 4096)) {
            try noBody.encoded()
        }
        #expect(throws: PushPayloadError.invalidLimit(6000)) { try noBody.encoded(maxBytes: 6000) }
    }

    @Test func voipLimitIsAllowed() throws {
        let payload = try full(body: String(repeating: "🇫🇷 ", count: 1000))
        try checkFitted(payload, limit: 5120)
        #expect(try payload.encoded(maxBytes: 5120).byteCount > 4096)
    }
}
