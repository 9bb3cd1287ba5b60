import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaNotifications

/// `journal-media link …` and `journal-media push`: output, stderr, exit statuses, --help.
@Suite struct NotificationCLITests {
    static let pathFormat = "https://myapp.com/journaling-suggestion/{journaling-suggestion-id}"
    static let queryFormat = "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier={journaling-suggesion-id}"
    static let id = "5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13"

    func object(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func linkValidate() throws {
        let path = try TestSupport.runCLI(["link", "validate", Self.pathFormat])
        #expect(path.status == 0 && path.stderr.isEmpty, "\(path.stderr)")
        let report = try object(path.stdout)
        #expect(report["placement"] as? String == "path" && report["pathComponent"] as? Int == 1)
        #expect(report["placeholderSpelling"] as? String == "documented")
        #expect(report["example"] as? String == "https://myapp.com/journaling-suggestion/\(Self.id)")
        #expect(report["generalReminder"] as? String == "https://myapp.com/journaling-suggestion/")

        let query = try TestSupport.runCLI(["link", "validate", Self.queryFormat])
        #expect(query.status == 0)
        let queryReport = try object(query.stdout)
        #expect(queryReport["placement"] as? String == "query" && queryReport["queryItem"] as? String == "suggestion-identifier")
        #expect(queryReport["placeholderSpelling"] as? String == "appleTypo")
        #expect(queryReport["placeholder"] as? String == "{journaling-suggesion-id}")

        let http = try TestSupport.runCLI(["link", "validate", "http://myapp.com/js/{journaling-suggestion-id}"])
        #expect(http.status == 0)
        #expect(http.stderr.hasPrefix("journal-media: warning: http:"))
        #expect((try object(http.stdout)["warnings"] as? [String])?.count == 1)

        for bad in ["https://myapp.com/js/", "https://myapp.com/js-{journaling-suggestion-id}", "ftp://myapp.com/{journaling-suggestion-id}"] {
            let run = try TestSupport.runCLI(["link", "validate", bad])
            #expect(run.status == 2 && run.stdout.isEmpty)
            #expect(run.stderr.contains(bad), "the message names the format: \(run.stderr)")
        }
    }

    @Test func linkBuild() throws {
        let built = try TestSupport.runCLI(["link", "build", Self.pathFormat, Self.id.lowercased()])
        #expect(built.status == 0)
        #expect(built.stdout == "https://myapp.com/journaling-suggestion/\(Self.id)\n")
        let general = try TestSupport.runCLI(["link", "build", Self.queryFormat])
        #expect(general.stdout == "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=\n")
        let bad = try TestSupport.runCLI(["link", "build", Self.pathFormat, "not-a-uuid"])
        #expect(bad.status == 2 && bad.stderr.contains("\"not-a-uuid\" is not a suggestion id"))
    }

    @Test func linkParse() throws {
        let urls = [
            "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=\(Self.id.lowercased())#x",
            "https://myapp.com/journaling-suggestion-notification?suggestion-identifier=",
            "https://myapp.com/journaling-suggestion/\(Self.id)",
        ]
        let run = try TestSupport.runCLI(["link", "parse", Self.queryFormat] + urls)
        #expect(run.status == 1, "one link is not of the format")
        let lines = try run.stdout.split(separator: "\n").map { try object($0) }
        #expect(lines.count == 3)
        #expect(lines.map { $0["url"] as? String } == urls)
        #expect(lines[0]["result"] as? String == "suggestion" && lines[0]["id"] as? String == Self.id)
        #expect(lines[1]["result"] as? String == "generalReminder" && lines[1]["id"] == nil)
        #expect(lines[2]["result"] as? String == "notThisFormat")
        #expect((lines[2]["reason"] as? String)?.contains("path /journaling-suggestion/") == true)

        let allGood = try TestSupport.runCLI(["link", "parse", Self.queryFormat, urls[0]])
        #expect(allGood.status == 0)
        #expect(try TestSupport.runCLI(["link", "parse", "https://myapp.com/", urls[0]]).status == 2)
    }

    @Test func linkAASA() throws {
        let run = try TestSupport.runCLI(["link", "aasa", Self.pathFormat, "--app-id", "ABCDE12345.com.example.journal",
                                          "--exclude-fragment", "no_universal_links"])
        #expect(run.status == 0, "\(run.stderr)")
        let decoded = try JSONDecoder().decode(AppSiteAssociation.self, from: Data(run.stdout.utf8))
        let expected = try SuggestionLinkFormat(Self.pathFormat).appSiteAssociation(
            appIDs: ["ABCDE12345.com.example.journal"], excludingFragment: "no_universal_links")
        #expect(decoded == expected)
        #expect(decoded.applinks.details[0].components.map(\.path) == [nil, "/journaling-suggestion/????????-????-????-????-????????????", "/journaling-suggestion/"])

        let noApp = try TestSupport.runCLI(["link", "aasa", Self.pathFormat])
        #expect(noApp.status == 2 && noApp.stderr.contains("--app-id"))
        let badApp = try TestSupport.runCLI(["link", "aasa", Self.pathFormat, "--app-id", "com.example.journal"])
        #expect(badApp.status == 2 && badApp.stderr.contains("not an application identifier"))
    }

    @Test func push() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let body = String(repeating: "Ça a été une belle journée 👩‍👩‍👧‍👦 au bord de l'eau. ", count: 120)
        let arguments = ["push", "--title", "A walk by the river", "--subtitle", "Sunday", "--body", body,
                         "--attachment-url", "https://cdn.example.com/covers/walk.jpg", "--category", "JOURNAL",
                         "--thread-id", "moments", "--interruption-level", "passive", "--relevance-score", "0.8",
                         "--target-content-id", "editor", "--link-format", Self.pathFormat, "--suggestion-id", Self.id]
        let run = try TestSupport.runCLI(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.utf8.count <= 4096 && !run.stdout.hasSuffix("\n"), "exactly the payload's bytes")
        #expect(run.stderr.contains("journal-media: note: body shortened"))
        let payload = try object(run.stdout)
        #expect(payload["suggestion-link"] as? String == "https://myapp.com/journaling-suggestion/\(Self.id)")
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["mutable-content"] as? Int == 1 && aps["interruption-level"] as? String == "passive")
        #expect(aps["target-content-id"] as? String == "editor" && aps["relevance-score"] as? Double == 0.8)
        #expect(((aps["alert"] as? [String: String])?["body"])?.hasSuffix("…") == true)

        let file = root.appendingPathComponent("payload.json")
        let written = try TestSupport.runCLI(arguments + ["--output", file.path])
        #expect(written.status == 0 && written.stdout.isEmpty)
        #expect(try Data(contentsOf: file) == Data(run.stdout.utf8))

        let general = try TestSupport.runCLI(["push", "--body", "Time to reflect", "--link-format", Self.queryFormat])
        #expect(try object(general.stdout)["suggestion-link"] as? String == "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=")
    }

    @Test func pushUsageErrors() throws {
        let cases: [([String], String)] = [
            (["push", "--title", "t", "--interruption-level", "urgent"], "interruption level \"urgent\""),
            (["push", "--title", "t", "--relevance-score", "1.5"], "relevance score 1.5"),
            (["push", "--title", String(repeating: "t", count: 4200), "--body", "b"], "without its body, over the 4096-byte limit"),
            (["push", "--title", "t", "--suggestion-id", Self.id], "--link-format"),
            (["push", "--title", "t", "--link-format", Self.pathFormat, "--suggestion-id", "xyz"], "\"xyz\" is not a suggestion id"),
            (["push", "--title", "t", "--link-format", "https://myapp.com/"], "no placeholder"),
            (["push", "--title", "t", "--app-clip-experience", "http://clip.example.com/a"], "https"),
            (["push", "--title", "t", "--target-content-id", "a", "--app-clip-experience", "https://clip.example.com/a"], "not both"),
            (["push", "--subtitle", ""], "subtitle is empty"),
            (["push"], "no title, subtitle or body"),
        ]
        for (arguments, message) in cases {
            let run = try TestSupport.runCLI(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    @Test func helpIsTheManual() throws {
        let pages: [([String], [String])] = [
            (["link", "--help"], ["JSNotificationURLFormat", "{journaling-suggesion-id}", "validate", "aasa"]),
            (["link", "validate", "--help"], ["placeholderSpelling", "Exit status 2"]),
            (["link", "build", "--help"], ["general-reminder", "upper case"]),
            (["link", "parse", "--help"], ["notThisFormat", "trailing slashes", "Exit status"]),
            (["link", "aasa", "--help"], [".well-known/apple-app-site-association", "--app-id", "exclude"]),
            (["push", "--help"], ["4,096", "mutable-content", "App Clip", "time-sensitive", "--max-bytes", "Exit status"]),
        ]
        for (arguments, needles) in pages {
            let run = try TestSupport.runCLI(arguments)
            #expect(run.status == 0, "\(arguments)")
            for needle in needles { #expect(run.stdout.contains(needle), "\(arguments) lacks \(needle)") }
        }
    }
}
