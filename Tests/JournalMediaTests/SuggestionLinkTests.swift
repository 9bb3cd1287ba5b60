import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaSuggestions
@testable import JournalMediaNotifications

/// `SuggestionLinkFormat`: the `JSNotificationURLFormat` link, on the formats of Apple's
/// documentation (both spellings of the placeholder, path and query forms).
@Suite struct SuggestionLinkTests {
    /// Apple's two examples, with a real domain, each with both spellings of the placeholder.
    static let pathFormat = "https://myapp.com/journaling-suggestion/{journaling-suggestion-id}"
    static let queryFormat = "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier={journaling-suggestion-id}"
    static let pathFormatTypo = "https://myapp.com/journaling-suggestion/{journaling-suggesion-id}"
    static let queryFormatTypo = "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier={journaling-suggesion-id}"
    /// The placeholder inside the path, and fixed query items beside a query placeholder.
    static let middleFormat = "https://journal.example.org/moments/{journaling-suggestion-id}/write"
    static let fixedItemsFormat = "https://journal.example.org/open?source=reminder&moment={journaling-suggestion-id}&v=2"
    static let allFormats = [pathFormat, queryFormat, pathFormatTypo, queryFormatTypo, middleFormat, fixedItemsFormat]

    @Test func applesPathAndQueryFormatsWithBothSpellings() throws {
        let path = try SuggestionLinkFormat(Self.pathFormat)
        #expect(path.placement == .pathComponent(index: 1))
        #expect(path.placeholder == .documented)
        #expect(path.warnings.isEmpty)
        #expect(path.scheme == "https" && path.host == "myapp.com" && path.port == nil)

        let typo = try SuggestionLinkFormat(Self.pathFormatTypo)
        #expect(typo.placeholder == .appleTypo)
        #expect(typo.placement == .pathComponent(index: 1))

        let query = try SuggestionLinkFormat(Self.queryFormat)
        #expect(query.placement == .queryValue(name: "suggestion-identifier"))
        #expect(query.placeholder == .documented)
        #expect(query.warnings.isEmpty)
        #expect(try SuggestionLinkFormat(Self.queryFormatTypo).placeholder == .appleTypo)

        #expect(try SuggestionLinkFormat(Self.middleFormat).placement == .pathComponent(index: 1))
        #expect(try SuggestionLinkFormat(Self.fixedItemsFormat).placement == .queryValue(name: "moment"))
    }

    @Test func httpIsAcceptedWithAWarningAndAnUnscopedPathIsFlagged() throws {
        let http = try SuggestionLinkFormat("http://myapp.com/journaling-suggestion/{journaling-suggestion-id}")
        #expect(http.scheme == "http")
        #expect(http.warnings.count == 1 && http.warnings[0].hasPrefix("http:"))
        let bare = try SuggestionLinkFormat("https://myapp.com/{journaling-suggesion-id}")
        #expect(bare.warnings.count == 1 && bare.warnings[0].contains("scopes"))
        #expect(try SuggestionLinkFormat("HTTPS://MyApp.com/js/{journaling-suggestion-id}").host == "myapp.com")
    }

    @Test(arguments: [
        ("https://myapp.com/journaling-suggestion/", SuggestionLinkError.noPlaceholder(format: "https://myapp.com/journaling-suggestion/")),
        ("https://myapp.com/{journaling-suggestion-id}/{journaling-suggesion-id}",
         .severalPlaceholders(format: "https://myapp.com/{journaling-suggestion-id}/{journaling-suggesion-id}", count: 2)),
        ("https://myapp.com/a/{journaling-suggestion-id}?b={journaling-suggestion-id}",
         .severalPlaceholders(format: "https://myapp.com/a/{journaling-suggestion-id}?b={journaling-suggestion-id}", count: 2)),
        ("https://myapp.com/js/{journaling-suggestion-ID}",
         .unknownPlaceholder(format: "https://myapp.com/js/{journaling-suggestion-ID}", found: "{journaling-suggestion-ID}")),
        ("https://myapp.com/js/{id}", .unknownPlaceholder(format: "https://myapp.com/js/{id}", found: "{id}")),
        ("https://myapp.com/js/%7Bjournaling-suggestion-id%7D", .encodedPlaceholder(format: "https://myapp.com/js/%7Bjournaling-suggestion-id%7D")),
        (" https://myapp.com/js/{journaling-suggestion-id}", .surroundingWhitespace(format: " https://myapp.com/js/{journaling-suggestion-id}")),
        ("myapp.com/js/{journaling-suggestion-id}", .notAURL(format: "myapp.com/js/{journaling-suggestion-id}")),
        ("ftp://myapp.com/js/{journaling-suggestion-id}", .unsupportedScheme(format: "ftp://myapp.com/js/{journaling-suggestion-id}", scheme: "ftp")),
        ("myapp://open/{journaling-suggestion-id}", .unsupportedScheme(format: "myapp://open/{journaling-suggestion-id}", scheme: "myapp")),
        ("https:///js/{journaling-suggestion-id}", .noHost(format: "https:///js/{journaling-suggestion-id}")),
        ("https://me:pw@myapp.com/js/{journaling-suggestion-id}", .credentials(format: "https://me:pw@myapp.com/js/{journaling-suggestion-id}")),
        ("https://myapp.com/js/{journaling-suggestion-id}#top", .fragment(format: "https://myapp.com/js/{journaling-suggestion-id}#top")),
        ("https://myapp.com/a/../{journaling-suggestion-id}", .dotSegment(format: "https://myapp.com/a/../{journaling-suggestion-id}")),
    ])
    func invalidFormatsAreRefusedNamingTheProblem(format: String, expected: SuggestionLinkError) {
        #expect(throws: expected) { try SuggestionLinkFormat(format) }
    }

    @Test(arguments: [
        ("https://myapp.com/js-{journaling-suggestion-id}", "js-{journaling-suggestion-id}"),
        ("https://myapp.com/js/{journaling-suggestion-id}.html", "{journaling-suggestion-id}.html"),
        ("https://{journaling-suggestion-id}.myapp.com/js", "host"),
        ("https://myapp.com/js?{journaling-suggestion-id}=1", "name of a query item"),
        ("https://myapp.com/js?id=x{journaling-suggestion-id}", "x{journaling-suggestion-id}"),
        ("https://myapp.com/js#{journaling-suggestion-id}", "fragment"),
    ])
    func placeholderMustBeAWholeComponentOrValue(format: String, detail: String) {
        do {
            _ = try SuggestionLinkFormat(format)
            Issue.record("\(format) was accepted")
        } catch {
            guard case .placeholderPosition(_, let message) = error else {
                Issue.record("\(format): \(error)")
                return
            }
            #expect(message.contains(detail), "\(message)")
        }
    }

    @Test func buildThenParseRoundTripsForRandomIDs() throws {
        for text in Self.allFormats {
            let format = try SuggestionLinkFormat(text)
            for _ in 0..<200 {
                let id = UUID()
                let link = format.link(for: id)
                #expect(link.contains(id.uuidString) && !link.contains("{"))
                #expect(format.match(link) == .suggestion(id), "\(link)")
                #expect(format.match(link.replacingOccurrences(of: id.uuidString, with: id.uuidString.lowercased())) == .suggestion(id))
                // Every character of the id percent-encoded, as a strict encoder might send it.
                let encoded = id.uuidString.utf8.map { String(format: "%%%02X", $0) }.joined()
                #expect(format.match(link.replacingOccurrences(of: id.uuidString, with: encoded)) == .suggestion(id), "\(encoded)")
                // A fragment and extra query items change nothing.
                let separator = link.contains("?") ? "&" : "?"
                #expect(format.match(link + separator + "utm_source=push&x=%20y#section-2") == .suggestion(id))
            }
        }
    }

    @Test func generalRemindersReplaceThePlaceholderWithNothing() throws {
        let path = try SuggestionLinkFormat(Self.pathFormat)
        #expect(path.generalReminderLink == "https://myapp.com/journaling-suggestion/")
        let query = try SuggestionLinkFormat(Self.queryFormatTypo)
        #expect(query.generalReminderLink == "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=")
        let middle = try SuggestionLinkFormat(Self.middleFormat)
        #expect(middle.generalReminderLink == "https://journal.example.org/moments//write")
        for text in Self.allFormats {
            let format = try SuggestionLinkFormat(text)
            #expect(format.match(format.generalReminderLink) == .generalReminder, "\(text)")
        }
        // Without the trailing slash, or the query item without "=", it is still the general reminder.
        #expect(path.match("https://myapp.com/journaling-suggestion") == .generalReminder)
        #expect(query.match("https://myapp.com/journaling-suggestion-notification?suggestion-identifier") == .generalReminder)
    }

    @Test func linksAreReadAsABrowserWould() throws {
        let path = try SuggestionLinkFormat(Self.pathFormat)
        let id = try #require(UUID(uuidString: "5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13"))
        for link in [
            "HTTPS://MyApp.COM/journaling-suggestion/5f2c1b9e-3a4d-4e8b-9c61-7d0a2e4f8b13",
            "https://myapp.com:443/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13",
            "https://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13/",
            "https://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13//",
            "https://myapp.com/other/../journaling-suggestion/./5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13",
            "https://myapp.com/x/%2E%2E/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13",
            "https://myapp.com/journaling%2Dsuggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13",
            "  https://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13\n",
        ] {
            #expect(path.match(link) == .suggestion(id), "\(link)")
        }
        let query = try SuggestionLinkFormat(Self.queryFormat)
        for link in [
            "https://myapp.com/journaling-suggestion-notification?suggestion-identifier=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13",
            "https://myapp.com/journaling-suggestion-notification/?a=1&suggestion-identifier=5f2c1b9e-3a4d-4e8b-9c61-7d0a2e4f8b13&b",
            "https://myapp.com/journaling-suggestion-notification/?suggestion%2Didentifier=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13#x",
            "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13&suggestion-identifier=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13",
        ] {
            #expect(query.match(link) == .suggestion(id), "\(link)")
        }
    }

    @Test(arguments: [
        (pathFormat, "https://other.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "host is other.com"),
        (pathFormat, "http://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "scheme is http"),
        (pathFormat, "https://myapp.com:8443/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "port 8443"),
        (pathFormat, "https://myapp.com/Journaling-Suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "path /Journaling-Suggestion/"),
        (pathFormat, "https://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13/edit", "does not fit"),
        (pathFormat, "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "path /journaling-suggestion-notification"),
        (pathFormat, "https://myapp.com/journaling-suggestion/12345", "\"12345\""),
        (pathFormat, "https://myapp.com/journaling-suggestion/{5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13}", "not"),
        (pathFormat, "https://myapp.com/journaling-suggestion/5F2C1B9E3A4D4E8B9C617D0A2E4F8B13", "not a UUID"),
        (pathFormat, "journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "not an absolute URL"),
        (queryFormat, "https://myapp.com/journaling-suggestion-notification/?id=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "no query item \"suggestion-identifier\""),
        (queryFormat, "https://myapp.com/journaling-suggestion/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "path /journaling-suggestion/5F2C1B9E"),
        (queryFormat, "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13&suggestion-identifier=7F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "2 times"),
        (queryFormat, "https://myapp.com/journaling-suggestion-notification/?suggestion-identifier=today", "\"today\""),
        (fixedItemsFormat, "https://journal.example.org/open?moment=5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13&v=2", "source=reminder is missing"),
        (middleFormat, "https://journal.example.org/moments/5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13", "does not fit"),
    ])
    func linksOfOtherFormatsAreRefusedWithAReason(format: String, link: String, reason: String) throws {
        let parsed = try SuggestionLinkFormat(format)
        guard case .notThisFormat(let why) = parsed.match(link) else {
            Issue.record("\(link) was taken for \(parsed.match(link))")
            return
        }
        #expect(why.contains(reason), "\(why)")
    }

    @Test func suggestionIDsAreCheckedOnTheirOwn() throws {
        let id = try SuggestionLinkFormat.suggestionID("5f2c1b9e-3a4d-4e8b-9c61-7d0a2e4f8b13")
        #expect(id.uuidString == "5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13")
        for bad in ["", "5F2C1B9E", "5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B1", "5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B1G",
                    "{5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13}", " 5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13"] {
            #expect(throws: SuggestionLinkError.invalidSuggestionID(bad)) { try SuggestionLinkFormat.suggestionID(bad) }
        }
    }
}

/// The apple-app-site-association entry: the JSON Apple documents (`applinks.details[]` with
/// `appIDs` and `components` keyed `/`, `?`, `#`, `exclude`, `comment`), and that its patterns
/// route exactly the format's links.
@Suite struct SuggestionLinkAASATests {
    static let appID = "ABCDE12345.com.example.journal"

    func json(_ file: AppSiteAssociation) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: file.jsonData()) as? [String: Any])
    }

    @Test func pathFormatEntryAsAppleDocumentsIt() throws {
        let format = try SuggestionLinkFormat(SuggestionLinkTests.pathFormat)
        let file = try format.appSiteAssociation(appIDs: [Self.appID])
        let root = try json(file)
        #expect(Array(root.keys) == ["applinks"])
        let applinks = try #require(root["applinks"] as? [String: Any])
        let details = try #require(applinks["details"] as? [[String: Any]])
        #expect(details.count == 1)
        #expect(details[0]["appIDs"] as? [String] == [Self.appID])
        let components = try #require(details[0]["components"] as? [[String: Any]])
        #expect(components.count == 2)
        #expect(components[0]["/"] as? String == "/journaling-suggestion/????????-????-????-????-????????????")
        #expect(components[1]["/"] as? String == "/journaling-suggestion/")
        #expect(components.allSatisfy { $0["?"] == nil && $0["#"] == nil && $0["exclude"] == nil && $0["comment"] is String })
        let text = String(decoding: file.jsonData(), as: UTF8.self)
        #expect(!text.contains("\\/"), "slashes are not escaped")
        // The Codable model reads its own output back.
        #expect(try JSONDecoder().decode(AppSiteAssociation.self, from: file.jsonData()) == file)
    }

    @Test func queryFormatEntryHasAQueryDictionary() throws {
        let format = try SuggestionLinkFormat(SuggestionLinkTests.fixedItemsFormat)
        let file = try format.appSiteAssociation(appIDs: [Self.appID, "FGHIJ67890.com.example.journal.clip"],
                                                  excludingFragment: "no_universal_links")
        let details = try #require((try json(file)["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
        #expect(details[0]["appIDs"] as? [String] == [Self.appID, "FGHIJ67890.com.example.journal.clip"])
        let components = try #require(details[0]["components"] as? [[String: Any]])
        #expect(components.count == 3)
        #expect(components[0]["#"] as? String == "no_universal_links")
        #expect(components[0]["exclude"] as? Bool == true)
        #expect(components[0]["/"] == nil)
        #expect(components[1]["/"] as? String == "/open")
        #expect(components[1]["?"] as? [String: String] == ["source": "reminder", "moment": SuggestionLinkFormat.uuidPattern, "v": "2"])
        #expect(components[2]["?"] as? [String: String] == ["source": "reminder", "moment": "", "v": "2"])
    }

    /// Apple's matching as documented: components in order, the first match decides; `*`
    /// any run, `?` one character; a `?` dictionary matches the named query items' values.
    func routes(_ file: AppSiteAssociation, _ link: String) throws -> Bool {
        let url = try #require(URLComponents(string: link))
        let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
        let items = url.queryItems ?? []
        for component in file.applinks.details.flatMap(\.components) {
            var matches = component.path.map { glob($0, path) } ?? true
            switch component.query {
            case .items(let patterns)?:
                for (name, pattern) in patterns where !items.contains(where: { $0.name == name && glob(pattern, $0.value ?? "") }) {
                    matches = false
                }
            case .pattern(let pattern)?:
                matches = matches && glob(pattern, url.percentEncodedQuery ?? "")
            case nil:
                break
            }
            if let fragment = component.fragment { matches = matches && glob(fragment, url.fragment ?? "") }
            if matches { return component.exclude != true }
        }
        return false
    }

    func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var table = Array(repeating: Array(repeating: false, count: t.count + 1), count: p.count + 1)
        table[0][0] = true
        for i in stride(from: 1, through: p.count, by: 1) {
            table[i][0] = table[i - 1][0] && p[i - 1] == "*"
            for j in stride(from: 1, through: t.count, by: 1) {
                switch p[i - 1] {
                case "*": table[i][j] = table[i - 1][j] || table[i][j - 1]
                case "?": table[i][j] = table[i - 1][j - 1]
                default: table[i][j] = table[i - 1][j - 1] && p[i - 1] == t[j - 1]
                }
            }
        }
        return table[p.count][t.count]
    }

    @Test func theEntryRoutesExactlyTheFormatsLinks() throws {
        for text in SuggestionLinkTests.allFormats {
            let format = try SuggestionLinkFormat(text)
            let file = try format.appSiteAssociation(appIDs: [Self.appID], excludingFragment: "no_universal_links")
            for _ in 0..<50 {
                let id = UUID()
                #expect(try routes(file, format.link(for: id)), "\(format.link(for: id))")
                #expect(try routes(file, format.link(for: id).replacingOccurrences(of: id.uuidString, with: id.uuidString.lowercased())))
                #expect(try !routes(file, format.link(for: id) + "#no_universal_links"))
            }
            #expect(try routes(file, format.generalReminderLink), "\(format.generalReminderLink)")
            // Near misses: the parser refuses them, and so do the AASA patterns.
            let id = UUID()
            let link = format.link(for: id)
            for other in [
                link.replacingOccurrences(of: "://\(format.host)/", with: "://\(format.host)/x/"),
                link.replacingOccurrences(of: id.uuidString, with: "today"),
                link.replacingOccurrences(of: id.uuidString, with: String(id.uuidString.dropLast())),
                link + "/more",
            ] {
                guard case .notThisFormat = format.match(other) else {
                    Issue.record("\(other) was taken for a link of \(text)")
                    continue
                }
                #expect(try !routes(file, other), "\(other) is routed to the app but is not a link of \(text)")
            }
        }
    }

    @Test func invalidAppIDsAndWildcardsAreRefused() throws {
        let format = try SuggestionLinkFormat(SuggestionLinkTests.pathFormat)
        for bad in ["ABCDE1234.com.example", "abcde12345.com.example", "ABCDE12345", "ABCDE12345.", "ABCDE12345.com..x", "com.example.journal"] {
            #expect(throws: SuggestionLinkError.invalidAppID(bad)) { try format.appLinksDetail(appIDs: [bad]) }
        }
        #expect(throws: SuggestionLinkError.invalidAppID("")) { try format.appLinksDetail(appIDs: []) }
        let star = try SuggestionLinkFormat("https://myapp.com/j*s/{journaling-suggestion-id}")
        #expect(throws: SuggestionLinkError.wildcardInFormat(format: star.text, text: "j*s")) { try star.appLinksDetail(appIDs: [Self.appID]) }
    }
}
