import ArgumentParser
import Foundation
import JournalMedia

/// `journal-media link`: the `JSNotificationURLFormat` universal link of a journaling app —
/// validate it, build links, read incoming links, write the apple-app-site-association entry.
struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Suggestion links: the JSNotificationURLFormat universal link of a journaling app.",
        discussion: """
            A journaling app declares in its Info.plist (key JSNotificationURLFormat) the \
            universal link iOS opens when a person taps a Journaling Suggestions reminder. \
            The link holds the placeholder {journaling-suggestion-id}, which iOS replaces with \
            the moment's UUID, or with nothing for a general reminder. Apple's pages also spell \
            it {journaling-suggesion-id}; both are accepted. The placeholder is either a whole \
            path component or a whole query value:

              https://myapp.com/journaling-suggestion/{journaling-suggestion-id}
              https://myapp.com/journaling-suggestion-notification/?suggestion-identifier={journaling-suggestion-id}

            Exit status: 0 done, 1 (parse) some links are not of the format, 2 usage error: an \
            invalid format, suggestion id or application identifier.
            """,
        subcommands: [Validate.self, Build.self, Parse.self, AppSiteAssociationCommand.self])

    /// Validates a format argument or ends with a usage error naming the problem.
    static func format(_ text: String) throws -> SuggestionLinkFormat {
        do { return try SuggestionLinkFormat(text) } catch { throw ValidationError(error.description) }
    }

    static func warn(_ warnings: [String]) {
        for warning in warnings {
            StandardError.writeLine("journal-media: warning: \(warning)")
        }
    }

    static func jsonLine(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check a JSNotificationURLFormat value and describe it (one JSON object).",
            discussion: """
                Accepted: an https URL (http only with a warning: universal links need https) \
                with a host, no user or password, no #fragment, and exactly one placeholder, \
                {journaling-suggestion-id} or {journaling-suggesion-id}, as a whole path \
                component or a whole query value. Prints, e.g.:

                  {"example":"https://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13",
                   "format":"https://myapp.com/journaling-suggestion/{journaling-suggestion-id}",
                   "generalReminder":"https://myapp.com/journaling-suggestion/",
                   "placeholder":"{journaling-suggestion-id}","placeholderSpelling":"documented",
                   "placement":"path","pathComponent":1,"warnings":[]}

                placeholderSpelling is "documented" or "appleTypo" ({journaling-suggesion-id}); \
                placement is "path" (pathComponent: its index, 0 first) or "query" (queryItem: \
                the item's name). Warnings are also written to stderr. Exit status 2, with the \
                reason, for an invalid format.
                """)

        @Argument(help: ArgumentHelp("The JSNotificationURLFormat value (quote it in the shell).", valueName: "format"))
        var format: String

        struct Report: Encodable {
            var format: String
            var placeholder: String
            var placeholderSpelling: String
            var placement: String
            var pathComponent: Int?
            var queryItem: String?
            var example: String
            var generalReminder: String
            var warnings: [String]
        }

        func run() throws {
            let parsed = try LinkCommand.format(format)
            var report = Report(format: parsed.text, placeholder: parsed.placeholder.text,
                                placeholderSpelling: parsed.placeholder == .documented ? "documented" : "appleTypo",
                                placement: "path", example: parsed.link(for: LinkCommand.exampleID),
                                generalReminder: parsed.generalReminderLink, warnings: parsed.warnings)
            switch parsed.placement {
            case .pathComponent(let index): report.pathComponent = index
            case .queryValue(let name):
                report.placement = "query"
                report.queryItem = name
            }
            LinkCommand.warn(parsed.warnings)
            print(LinkCommand.jsonLine(report))
        }
    }

    static let exampleID = UUID(uuidString: "5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13") ?? UUID()

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Print the link iOS opens for a suggestion id, or the general-reminder link.",
            discussion: """
                The placeholder is replaced by ID in upper case (as Apple's UUID.uuidString \
                writes it), or by nothing when ID is left out (a general reminder):

                  journal-media link build 'https://myapp.com/js/{journaling-suggestion-id}' 5f2c1b9e-3a4d-4e8b-9c61-7d0a2e4f8b13
                  https://myapp.com/js/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13

                Exit status 2 for an invalid format or an ID that is not a UUID.
                """)

        @Argument(help: ArgumentHelp("The JSNotificationURLFormat value.", valueName: "format"))
        var format: String

        @Argument(help: ArgumentHelp("The suggestion's UUID; leave out for the general-reminder link.", valueName: "id"))
        var id: String?

        func run() throws {
            let parsed = try LinkCommand.format(format)
            LinkCommand.warn(parsed.warnings)
            guard let id else {
                print(parsed.generalReminderLink)
                return
            }
            do { print(parsed.link(for: try SuggestionLinkFormat.suggestionID(id))) } catch {
                throw ValidationError(error.description)
            }
        }
    }

    struct Parse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "parse",
            abstract: "Read incoming links against a format (one JSON object per link).",
            discussion: """
                For each URL, in order, one line:

                  {"id":"5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13","result":"suggestion","url":"…"}
                  {"result":"generalReminder","url":"…"}
                  {"reason":"path /other/x does not fit /journaling-suggestion/{journaling-suggestion-id}","result":"notThisFormat","url":"…"}

                Links are read as a browser would: scheme and host in any case, the default \
                port, "." and ".." path components resolved, percent-encoding decoded, \
                trailing slashes, other query items and the #fragment ignored; the id in \
                either case. The fixed path is compared case-sensitively. The id is printed \
                in upper case.

                Exit status: 0 every link is of the format, 1 some are not, 2 invalid format.
                """)

        @Argument(help: ArgumentHelp("The JSNotificationURLFormat value.", valueName: "format"))
        var format: String

        @Argument(help: ArgumentHelp("Incoming links.", valueName: "url"))
        var urls: [String]

        struct Line: Encodable {
            var url: String
            var result: String
            var id: String?
            var reason: String?
        }

        func run() throws {
            let parsed = try LinkCommand.format(format)
            var lines: [String] = []
            var refused = 0
            for url in urls {
                switch parsed.match(url) {
                case .suggestion(let id):
                    lines.append(LinkCommand.jsonLine(Line(url: url, result: "suggestion", id: id.uuidString)))
                case .generalReminder:
                    lines.append(LinkCommand.jsonLine(Line(url: url, result: "generalReminder")))
                case .notThisFormat(let reason):
                    refused += 1
                    lines.append(LinkCommand.jsonLine(Line(url: url, result: "notThisFormat", reason: reason)))
                }
            }
            if !lines.isEmpty { print(lines.joined(separator: "\n")) }
            if refused > 0 { throw ExitCode(ExitStatus.someAssetsFailed) }
        }
    }

    struct AppSiteAssociationCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "aasa",
            abstract: "Print the apple-app-site-association file that opens exactly these links in the app.",
            discussion: """
                Serve it at https://HOST/.well-known/apple-app-site-association (JSON, no \
                redirect), or merge its details entry into the file you serve, before broader \
                components of the same app. For \
                https://myapp.com/journaling-suggestion/{journaling-suggestion-id}:

                  {
                    "applinks" : {
                      "details" : [
                        {
                          "appIDs" : [ "ABCDE12345.com.example.journal" ],
                          "components" : [
                            { "/" : "/journaling-suggestion/????????-????-????-????-????????????",
                              "comment" : "…one moment…" },
                            { "/" : "/journaling-suggestion/",
                              "comment" : "…general reminder…" }
                          ]
                        }
                      ]
                    }
                  }

                In a pattern, ? matches exactly one character and * any run; a query-value \
                format gets a "?" dictionary ({"suggestion-identifier": "????????-…"}) beside \
                its "/" path. --exclude-fragment NAME adds a first component {"#": NAME, \
                "exclude": true} so that your web pages can link to these URLs with #NAME \
                without opening the app. Exit status 2 for an invalid format or application \
                identifier, or a format whose fixed text contains * or ?.
                """)

        @Argument(help: ArgumentHelp("The JSNotificationURLFormat value.", valueName: "format"))
        var format: String

        @Option(name: .customLong("app-id"), help: ArgumentHelp("Application identifier TEAMID.bundle.id (repeat for several apps).", valueName: "id"))
        var appIDs: [String] = []

        @Option(name: .customLong("exclude-fragment"), help: ArgumentHelp("Keep links ending in #NAME in the browser.", valueName: "name"))
        var excludeFragment: String?

        func validate() throws {
            if appIDs.isEmpty { throw ValidationError("give at least one --app-id TEAMID.bundle.id") }
            if let excludeFragment, excludeFragment.isEmpty { throw ValidationError("--exclude-fragment is empty") }
        }

        func run() throws {
            let parsed = try LinkCommand.format(format)
            LinkCommand.warn(parsed.warnings)
            let file: AppSiteAssociation
            do { file = try parsed.appSiteAssociation(appIDs: appIDs, excludingFragment: excludeFragment) } catch {
                throw ValidationError(error.description)
            }
            print(String(decoding: file.jsonData(), as: UTF8.self))
        }
    }
}
