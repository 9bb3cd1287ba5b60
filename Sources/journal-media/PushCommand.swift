import ArgumentParser
import Foundation
import JournalMedia

/// `journal-media push`: writes the APNs JSON payload of a journaling reminder.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Write the APNs payload (JSON) of a journaling reminder, fitted to 4,096 bytes.",
        discussion: """
            Prints the payload a backend POSTs to APNs, compact, keys sorted:

              {"aps":{"alert":{"body":"…","subtitle":"…","title":"…"},"category":"…",
                      "interruption-level":"active","mutable-content":1,"relevance-score":0.8,
                      "target-content-id":"…","thread-id":"…"},
               "attachment-url":"https://…","suggestion-link":"https://…"}

            Custom keys beside "aps": "attachment-url" (with --attachment-url; it also sets \
            "mutable-content":1 so that iOS runs the app's notification service extension, \
            which downloads that URL and attaches it) and "suggestion-link" (with \
            --link-format: the link built for --suggestion-id, or the general-reminder link \
            without one; see `journal-media link`).

            target-content-id: for a full app, --target-content-id ID, the scene or content \
            identifier iOS matches against the app's scenes to pick the window to bring \
            forward. For an App Clip serving several businesses, --app-clip-experience URL: it \
            must be the https URL of the App Clip experience, as registered in App Store \
            Connect; iOS routes the notification to the App Clip instance launched for that \
            experience (longest invocation-URL prefix). App Clips have no notification \
            service extension, so they show no attachment.

            Interruption levels: passive, active (iOS's default), time-sensitive (needs the \
            Time Sensitive Notifications capability), critical (needs Apple's Critical \
            Alerts entitlement). Relevance score: 0 to 1.

            Size: APNs refuses payloads over 4,096 bytes. The UTF-8 JSON is measured; when \
            it is longer, only the body is shortened, at a character (grapheme cluster) \
            boundary, with "…" appended; every other key is kept whole. When even an \
            ellipsis alone as the body does not fit, nothing is printed and the exit status \
            is 2. A shortening is reported on stderr, as are warnings.

            stdout gets exactly the measured bytes (a newline is added only on a terminal), \
            so `journal-media push … | curl --data-binary @- …` sends what was measured; \
            --output FILE writes the same bytes to FILE.

            Exit status: 0 written, 2 usage error (an invalid level, score, URL, id or \
            format, or a payload that cannot fit).
            """)

    @Option(help: "aps.alert.title.")
    var title: String?

    @Option(help: "aps.alert.subtitle.")
    var subtitle: String?

    @Option(help: "aps.alert.body; shortened to fit the byte limit.")
    var body: String?

    @Option(name: .customLong("attachment-url"), help: ArgumentHelp("Picture for the notification service extension to download (https).", valueName: "url"))
    var attachmentURL: String?

    @Option(help: "aps.category: a notification category the app registered.")
    var category: String?

    @Option(name: .customLong("thread-id"), help: ArgumentHelp("aps.thread-id: notifications of one thread are grouped.", valueName: "id"))
    var threadID: String?

    @Option(name: .customLong("interruption-level"), help: ArgumentHelp("passive, active, time-sensitive or critical.", valueName: "level"))
    var interruptionLevel: String?

    @Option(name: .customLong("relevance-score"), help: ArgumentHelp("0 to 1: rank in the notification summary.", valueName: "score"))
    var relevanceScore: Double?

    @Option(name: .customLong("target-content-id"), help: ArgumentHelp("A full app's scene or content identifier.", valueName: "id"))
    var targetContentID: String?

    @Option(name: .customLong("app-clip-experience"), help: ArgumentHelp("An App Clip's experience URL, as target-content-id.", valueName: "url"))
    var appClipExperience: String?

    @Option(name: .customLong("link-format"), help: ArgumentHelp("The app's JSNotificationURLFormat, to add the suggestion link.", valueName: "format"))
    var linkFormat: String?

    @Option(name: .customLong("suggestion-id"), help: ArgumentHelp("The suggestion's UUID (with --link-format; without it, the general-reminder link).", valueName: "id"))
    var suggestionID: String?

    @Option(name: .customLong("max-bytes"), help: ArgumentHelp("Payload limit in bytes (5120 for VoIP pushes).", valueName: "n"))
    var maxBytes: Int = PushPayload.apnsMaxBytes

    @Option(name: [.short, .long], help: ArgumentHelp("Write the payload to this file instead of stdout.", valueName: "file"))
    var output: String?

    func validate() throws {
        if targetContentID != nil && appClipExperience != nil {
            throw ValidationError("give --target-content-id (a full app) or --app-clip-experience (an App Clip), not both")
        }
        if suggestionID != nil && linkFormat == nil {
            throw ValidationError("--suggestion-id needs --link-format, the app's JSNotificationURLFormat")
        }
    }

    func run() throws {
        let payload = try payload()
        let encoded: EncodedPushPayload
        do throws(PushPayloadError) {
            encoded = try payload.encoded(maxBytes: maxBytes)
        } catch {
            throw ValidationError(error.description)
        }
        LinkCommand.warn(encoded.warnings)
        if let shortening = encoded.shortening {
            let note = "journal-media: note: body shortened from \(shortening.originalCharacters) to \(shortening.keptCharacters) characters + \"…\" (payload \(shortening.unshortenedBytes) → \(encoded.byteCount) bytes, limit \(maxBytes))"
            StandardError.writeLine(note)
        }
        if let output {
            do { try encoded.data.write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
                throw ValidationError("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(encoded.data)
            if isatty(STDOUT_FILENO) == 1 { FileHandle.standardOutput.write(Data("\n".utf8)) }
        }
    }

    /// The payload from the flags; library errors become usage errors naming the flag's value.
    private func payload() throws -> PushPayload {
        var link: String?
        if let linkFormat {
            let format = try LinkCommand.format(linkFormat)
            LinkCommand.warn(format.warnings)
            if let suggestionID {
                do { link = format.link(for: try SuggestionLinkFormat.suggestionID(suggestionID)) } catch {
                    throw ValidationError(error.description)
                }
            } else {
                link = format.generalReminderLink
            }
        }
        var target: PushTargetContent?
        if let targetContentID { target = .content(targetContentID) }
        if let appClipExperience { target = .appClipExperience(appClipExperience) }
        do throws(PushPayloadError) {
            let level = try interruptionLevel.map { (text) throws(PushPayloadError) in try PushInterruptionLevel.parse(text) }
            return try PushPayload(
                content: PushContent(title: title, subtitle: subtitle, body: body, attachmentURL: attachmentURL, suggestionLink: link),
                delivery: PushDelivery(category: category, threadID: threadID, interruptionLevel: level,
                                       relevanceScore: relevanceScore, targetContent: target))
        } catch {
            throw ValidationError(error.description)
        }
    }
}
