import Foundation
import JournalMediaCore
import JournalMediaSuggestions
import Testing

/// Item → light and dark CardSpec: every type with and without its optional fields, locale
/// formatting, the reflection foreground rule, contrast targets, routes and pins.
@Suite struct CardSpecBuilderTests {
    static func read(_ items: String, locale: String = "en_US", zone: String = "UTC") throws -> SuggestionBundle {
        try SuggestionBundleReader.read(Data(
            #"{"schemaVersion":1,"bundleId":"b","timeZone":"\#(zone)","locale":"\#(locale)","suggestion":{"title":"Title","date":{"start":"2025-10-04T05:58:00Z","end":"2025-10-04T07:10:00Z"},"items":[\#(items)]}}"#.utf8))
    }

    static func cards(_ item: String, locale: String = "en_US", zone: String = "UTC",
                      pictures: CardPictures = .none, redact: Bool = false) throws -> CardPair {
        let bundle = try read(item, locale: locale, zone: zone)
        return CardSpecBuilder(bundle: bundle, redactLocation: redact).cards(for: bundle.suggestion.items[0], pictures: pictures)
    }

    static func checkContrast(_ pair: CardPair, _ label: String) {
        for report in [pair.lightColors, pair.darkColors] {
            #expect(abs(report.headlineLc) >= CardPalette.headlineTarget, "\(label): \(report)")
            #expect(abs(report.bodyLc) >= CardPalette.bodyTarget, "\(label): \(report)")
        }
        #expect(pair.light.appearance == .light && pair.dark.appearance == .dark)
        #expect(!pair.light.headline.isEmpty, "\(label)")
        #expect(pair.light.lines.count <= 3, "\(label)")
    }

    static let full: [(String, String)] = [
        ("workout", #"{"id":"1","type":"workout","icon":"i.png","route":[{"latitude":52.52,"longitude":13.40},{"latitude":52.53,"longitude":13.41}],"details":{"activityType":37,"localizedName":"Outdoor Run","activeEnergyKcal":512.4,"distanceMeters":10021.7,"averageHeartRateBpm":151.2,"date":{"start":"2025-10-04T06:00:00Z","end":"2025-10-04T06:52:10Z"}}}"#),
        ("workoutGroup", #"{"id":"1","type":"workoutGroup","icon":"i.png","activeEnergyKcal":600,"averageHeartRateBpm":120,"durationSeconds":3600,"workouts":[{"details":{"activityType":13}},{"details":{"activityType":57}}]}"#),
        ("contact", #"{"id":"1","type":"contact","name":"Ada Lovelace","photo":"p.jpg"}"#),
        ("location", #"{"id":"1","type":"location","place":"Museum Island","city":"Berlin","latitude":52.5169,"longitude":13.4019,"date":"2025-10-04T09:00:00Z","isWorkLocation":true}"#),
        ("locationGroup", #"{"id":"1","type":"locationGroup","locations":[{"place":"A","latitude":1,"longitude":1},{"place":"B","latitude":1.1,"longitude":1.2},{"place":"C","latitude":0.9,"longitude":1.1}]}"#),
        ("song", #"{"id":"1","type":"song","song":"S","artist":"A","album":"Al","artwork":"a.jpg","date":"2025-10-04T09:00:00Z"}"#),
        ("podcast", #"{"id":"1","type":"podcast","episode":"E","show":"S","artwork":"a.jpg","date":"2025-10-04T09:00:00Z"}"#),
        ("genericMedia", #"{"id":"1","type":"genericMedia","title":"T","artist":"A","album":"Al","appIcon":"a.svg","date":"2025-10-04T09:00:00Z"}"#),
        ("motionActivity", #"{"id":"1","type":"motionActivity","steps":12345,"movementType":"walking","icon":"i.png","date":{"start":"2025-10-04T06:00:00Z","end":"2025-10-04T07:00:00Z"}}"#),
        ("reflection", ##"{"id":"1","type":"reflection","prompt":"What surprised you today?","color":"#0A84FF"}"##),
        ("stateOfMind", ##"{"id":"1","type":"stateOfMind","kind":"momentaryEmotion","valence":0.6,"valenceClassification":"pleasant","labels":["joyful"],"associations":["selfCare"],"icon":"m.png","lightBackground":[{"color":"#FFE7B3","location":0},{"color":"#FFC15E","location":1}],"darkBackground":[{"color":"#5A3A00","location":0},{"color":"#2B1B00","location":1}],"date":"2025-10-04T09:00:00Z"}"##),
        ("eventPoster", #"{"id":"1","type":"eventPoster","title":"Concert","placeName":"Park","image":"p.jpg","start":"2025-10-04T18:00:00Z","end":"2025-10-04T21:00:00Z","isHost":true}"#),
        ("photo", #"{"id":"1","type":"photo","photo":"p.jpg","date":"2025-10-04T09:00:00Z"}"#),
        ("livePhoto", #"{"id":"1","type":"livePhoto","image":"p.jpg","video":"p.mov"}"#),
        ("video", #"{"id":"1","type":"video","video":"v.mp4"}"#),
        ("unknown", #"{"id":"1","type":"boardingPass","fallbackImage":"f.png"}"#),
    ]

    static let minimal: [(String, String)] = [
        ("workout", #"{"id":"1","type":"workout"}"#),
        ("workoutGroup", #"{"id":"1","type":"workoutGroup"}"#),
        ("contact", #"{"id":"1","type":"contact","name":"Ada"}"#),
        ("location", #"{"id":"1","type":"location"}"#),
        ("locationGroup", #"{"id":"1","type":"locationGroup"}"#),
        ("song", #"{"id":"1","type":"song"}"#),
        ("podcast", #"{"id":"1","type":"podcast"}"#),
        ("genericMedia", #"{"id":"1","type":"genericMedia"}"#),
        ("motionActivity", #"{"id":"1","type":"motionActivity","steps":0}"#),
        ("reflection", #"{"id":"1","type":"reflection","prompt":"?"}"#),
        ("stateOfMind", #"{"id":"1","type":"stateOfMind","kind":"dailyMood","valence":-1}"#),
        ("eventPoster", #"{"id":"1","type":"eventPoster","title":"E"}"#),
        ("unknown", #"{"id":"1","type":"futureThing"}"#),
    ]

    @Test func everyTypeBuildsWithItsOptionalFields() throws {
        let pictures = CardPictures(fields: ["icon", "photo", "artwork", "appIcon", "image", "video", "fallbackImage"])
        var expected: [String: String] = [
            "workout": "Outdoor Run", "workoutGroup": "2 workouts", "contact": "Ada Lovelace", "location": "Museum Island",
            "locationGroup": "A, B and C", "song": "S", "podcast": "E", "genericMedia": "T", "motionActivity": "12,345 steps",
            "reflection": "What surprised you today?", "stateOfMind": "Pleasant", "eventPoster": "Concert", "unknown": "Title",
        ]
        for (type, json) in Self.full {
            let pair = try Self.cards(json, pictures: pictures)
            Self.checkContrast(pair, type)
            if let headline = expected.removeValue(forKey: type) { #expect(pair.light.headline == headline, "\(type)") }
            #expect(pair.light.headline == pair.dark.headline && pair.light.lines == pair.dark.lines, "\(type)")
        }
        #expect(expected.isEmpty)
        let contact = try Self.cards(Self.full[2].1, pictures: pictures)
        #expect(contact.light.hero == .image(field: "photo", shape: .circle))
        let song = try Self.cards(Self.full[5].1, pictures: pictures)
        #expect(song.light.lines == ["A", "Al"])
        #expect(song.light.hero == .image(field: "artwork", shape: .rounded))
        let event = try Self.cards(Self.full[11].1, pictures: pictures)
        #expect(event.light.badge == "Hosting")
        #expect(event.light.lines == ["Park", "Oct 4, 2025 at 6:00\u{202F}PM – 9:00\u{202F}PM"])
        let mood = try Self.cards(Self.full[10].1, pictures: pictures)
        #expect(mood.light.lines == ["Momentary emotion"])
        #expect(mood.light.chips == ["Joyful", "Self-care"])
        // The mood itself is the hero (not the bundle's icon): a form in the given gradient's hues.
        guard case .mood(let form, let valence) = mood.light.hero else { Issue.record("no mood form"); return }
        #expect(form.count == 2 && valence > 0)
        guard case .verticalGradient(let stops) = mood.light.background else { Issue.record("no gradient"); return }
        #expect(stops.map(\.color) == ["#FFE7B3", "#FFC15E"], "the given gradient carries black text as it is")
        #expect(mood.dark.background != mood.light.background)
    }

    @Test func everyTypeBuildsWithoutItsOptionalFields() throws {
        for (type, json) in Self.minimal {
            let pair = try Self.cards(json)
            Self.checkContrast(pair, type)
            if case .image = pair.light.hero { Issue.record("\(type): a picture without a file") }
        }
        let workout = try Self.cards(Self.minimal[0].1)
        #expect(workout.light.headline == "Workout" && workout.light.hero == .glyph(.workout))
        let contact = try Self.cards(Self.minimal[2].1)
        guard case .initials(let letters, let disc, let text) = contact.light.hero else { Issue.record("no initials"); return }
        #expect(letters == "A")
        #expect(text == ForegroundChooser.choose(for: try RGBColor.parse(disc)).foreground)
        let mood = try Self.cards(Self.minimal[10].1)
        #expect(mood.light.headline == "Very unpleasant")
        guard case .verticalGradient = mood.light.background else { Issue.record("no valence palette"); return }
        guard case .mood = mood.light.hero else { Issue.record("no mood form"); return }
        let unknown = try Self.cards(Self.minimal[12].1)
        #expect(unknown.light.hero == .glyph(.unknown))
        #expect(unknown.warnings.first?.contains("futureThing") == true)
    }

    @Test func unknownValuesAreShownNeutrallyAndReported() throws {
        let motion = try Self.cards(#"{"id":"1","type":"motionActivity","steps":3,"movementType":"crabWalking"}"#)
        #expect(motion.light.lines == ["Crab walking"])
        #expect(motion.light.hero == .glyph(.steps))
        #expect(motion.warnings.count == 1)
        let mood = try Self.cards(#"{"id":"1","type":"stateOfMind","kind":"weeklyMood","valence":0.1,"valenceClassification":"ecstatic","labels":["starStruck","calm"]}"#)
        #expect(mood.light.headline == "Ecstatic")
        #expect(mood.light.lines == ["Weekly mood"])
        #expect(mood.light.chips == ["Star struck", "Calm"])
        #expect(mood.warnings.count == 3)
        let workout = try Self.cards(#"{"id":"1","type":"workout","details":{"activityType":9999}}"#)
        #expect(workout.light.headline == "Workout")
        #expect(workout.warnings.count == 1)
    }

    @Test func localeFormatting() throws {
        let run = Self.full[0].1
        let de = try Self.cards(run, locale: "de_DE", zone: "Europe/Berlin")
        #expect(de.light.lines == ["52 min · 10,02 km", "512 kcal · 151 bpm"])
        #expect(de.light.footnote == "4. Okt. 2025, 8:00 – 8:52")
        let us = try Self.cards(run, locale: "en_US", zone: "America/New_York")
        #expect(us.light.lines == ["52 min · 6.23 mi", "512 kcal · 151 bpm"])
        #expect(us.light.footnote == "Oct 4, 2025 at 2:00\u{202F}AM – 2:52\u{202F}AM", "ICU puts a narrow no-break space before AM")
        let ja = try Self.cards(run, locale: "ja_JP", zone: "Asia/Tokyo")
        #expect(ja.light.lines == ["52 min · 10.02 km", "512 kcal · 151 bpm"])
        #expect(ja.light.footnote == "2025年10月4日 15:00 – 15:52")
        let steps = #"{"id":"1","type":"motionActivity","steps":12345}"#
        #expect(try Self.cards(steps, locale: "de_DE").light.headline == "12.345 steps")
        #expect(try Self.cards(steps, locale: "en_US").light.headline == "12,345 steps")
        #expect(try Self.cards(steps, locale: "ja_JP").light.headline == "12,345 steps")
        // Dates beside their raw values, in the bundle's zone.
        #expect(de.dates.map(\.field) == ["details.date.start", "details.date.end"])
        #expect(de.dates.first?.raw == "2025-10-04T06:00:00Z")
        #expect(de.dates.first?.formatted == "4. Okt. 2025, 8:00")
        let format = CardTextFormatter(locale: Locale(identifier: "en_US"), timeZone: .gmt)
        #expect(format.duration(seconds: 45) == "45 s")
        #expect(format.duration(seconds: 3 * 3600 + 7 * 60 + 10) == "3 h 7 min")
        #expect(format.duration(seconds: 7200) == "2 h")
    }

    /// The reflection card's light foreground is the colour issue's pinned choice for each
    /// of its tested colours; where that choice cannot reach |Lc| 75, the background's tone
    /// moves (hue kept) and the requested colour is reported.
    @Test(arguments: [
        ("#2196F3", "#FFFFFF"), ("#0A84FF", "#FFFFFF"), ("#FF5722", "#FFFFFF"), ("#F57C00", "#FFFFFF"), ("#4CAF50", "#FFFFFF"),
        ("#FFFFFF", "#000000"), ("#EEEEEE", "#000000"), ("#BBBBBB", "#000000"), ("#777777", "#FFFFFF"), ("#333333", "#FFFFFF"),
        ("#111111", "#FFFFFF"), ("#000000", "#FFFFFF"), ("#FF0000", "#FFFFFF"), ("#00FF00", "#000000"), ("#0000FF", "#FFFFFF"),
        ("#FFFF00", "#000000"), ("#00FFFF", "#000000"), ("#FF00FF", "#FFFFFF"),
    ])
    func reflectionForegroundIsPinned(background: String, foreground: String) throws {
        let pair = try Self.cards(#"{"id":"1","type":"reflection","prompt":"Hello","color":"\#(background)"}"#)
        #expect(pair.light.foreground == foreground)
        let drawn = try RGBColor.parse(pair.lightColors.background[0])
        #expect(abs(Contrast.apcaLc(text: try RGBColor.parse(foreground), background: drawn)) >= 75)
        if pair.lightColors.requestedBackground == nil {
            #expect(pair.lightColors.background == [background])
        } else {
            #expect(pair.lightColors.requestedBackground == [background])
            let hueShift = abs(OKLab(drawn).hue - OKLab(try RGBColor.parse(background)).hue)
            #expect(OKLab(drawn).chroma < 0.02 || min(hueShift, 2 * .pi - hueShift) < 0.2, "hue kept")
        }
        #expect(pair.light.hero == nil)
    }

    @Test func whiteAndBlackBackgroundsNeedNoChange() throws {
        let white = try Self.cards(##"{"id":"1","type":"reflection","prompt":"Hi","color":"#FFFFFF"}"##)
        #expect(white.lightColors.requestedBackground == nil)
        #expect(white.lightColors.headlineLc == 106)
        #expect(white.light.background == .solid("#FFFFFF"))
    }

    @Test func aLongPromptIsShortenedBeforeRendering() throws {
        let prompt = String(repeating: "word ", count: 2000)
        let pair = try Self.cards(#"{"id":"1","type":"reflection","prompt":"\#(prompt)"}"#)
        #expect(pair.light.headline.count <= CardSpecBuilder.maxHeadlineLength + 1)
        #expect(pair.light.headline.count > CardSpecBuilder.maxHeadlineLength - 5)
        #expect(pair.light.headline.hasSuffix("…"))
    }

    @Test func routeProjectionKeepsDistancesTrueAtLatitude() {
        // A degree of longitude at 60° N is half as long as a degree of latitude.
        let frame = RouteProjection.unitFrame([[(60, 10), (60, 10.04), (60.01, 10.04)]])[0]
        #expect(abs(frame[0].x - 0) < 1e-9 && abs(frame[1].x - 1) < 1e-6, "east–west is the larger extent")
        let eastWest = frame[1].x - frame[0].x, northSouth = frame[1].y - frame[2].y
        #expect(abs(northSouth / eastWest - 0.5) < 0.01, "0.04° lon × cos 60° = 2 × 0.01° lat")
        #expect(frame[2].y < frame[1].y, "north is up")
        // Centred on the short axis.
        #expect(abs((frame[1].y + frame[2].y) / 2 - 0.5) < 1e-6)
        // A single place sits in the middle.
        #expect(RouteProjection.unitFrame([[(1, 2), (1, 2)]])[0] == [CardPoint(x: 0.5, y: 0.5), CardPoint(x: 0.5, y: 0.5)])
        // Across the antimeridian the route stays short.
        let dateLine = RouteProjection.unitFrame([[(0, 179.99), (0, -179.99)]])[0]
        #expect(abs(dateLine[1].x - dateLine[0].x - 1) < 1e-6)
    }

    @Test func douglasPeuckerKeepsCornersAndDropsCollinearPoints() {
        var square: [CardPoint] = []
        for i in 0...100 { square.append(CardPoint(x: Double(i) / 100, y: 0)) }
        for i in 1...100 { square.append(CardPoint(x: 1, y: Double(i) / 100)) }
        for i in 1...100 { square.append(CardPoint(x: 1 - Double(i) / 100, y: 1)) }
        let simplified = RouteProjection.simplify(square, maxPoints: 10)
        #expect(simplified == [CardPoint(x: 0, y: 0), CardPoint(x: 1, y: 0), CardPoint(x: 1, y: 1), CardPoint(x: 0, y: 1)])
        let circle = (0..<5000).map { i -> CardPoint in
            let a = Double(i) / 5000 * 2 * .pi
            return CardPoint(x: 0.5 + 0.5 * cos(a), y: 0.5 + 0.5 * sin(a))
        }
        let round = RouteProjection.simplify(circle, maxPoints: 1000)
        #expect(round.count <= 1000 && round.count >= 50)
        #expect(round.first == circle.first && round.last == circle.last)
    }

    @Test func locationsWithAndWithoutCoordinatesText() throws {
        let item = Self.full[3].1
        let plain = try Self.cards(item)
        #expect(plain.light.lines == ["Berlin", "52.5169° N, 13.4019° E"])
        #expect(plain.light.badge == "Work")
        // A place with coordinates and no map picture: its pin on the abstract frame.
        #expect(plain.light.hero == .frame(pins: [CardPin(point: CardPoint(x: 0.5, y: 0.5))], routes: [], scaleLabel: nil))
        let redacted = try Self.cards(item, redact: true)
        #expect(redacted.light.lines == ["Berlin"])
        let de = try Self.cards(item, locale: "de_DE")
        #expect(de.light.lines.last == "52,5169° N, 13,4019° E")
        let group = try Self.cards(Self.full[4].1, redact: true)
        guard case .frame(let pins, _, let scale) = group.light.hero else { Issue.record("no pins"); return }
        #expect(pins.map(\.label) == ["A", "B", "C"])
        #expect(scale?.hasPrefix("≈ ") == true && scale?.hasSuffix(" across") == true, "\(String(describing: scale))")
        // The list headline keeps each name whole.
        #expect(group.light.keepTogether == ["A", "B", "C"])
        #expect(pins.allSatisfy { (0...1).contains($0.point.x) && (0...1).contains($0.point.y) })
        #expect(!group.light.lines.joined().contains("°"))
    }

    @Test func mediaCardsTakeTheArtworksColours() throws {
        // The card colours the pipeline computes for a blue artwork (colors.card).
        let colors = ImageColorAnalyzer.cardColors(seed: OKLab(RGBColor(0x1E, 0x78, 0xC8)))
        let pair = try Self.cards(Self.full[5].1, pictures: CardPictures(fields: ["artwork"], colors: ["artwork": colors]))
        #expect(pair.light.background == .solid(colors.light.background))
        #expect(pair.dark.background == .solid(colors.dark.background))
        #expect(pair.light.foreground == colors.light.foreground && pair.dark.foreground == colors.dark.foreground)
    }

    @Test func aPictureThatCouldNotBeUsedShowsThePictureUnavailableGlyph() throws {
        // Song, podcast, generic media, poster: the failed picture's place says so; without a
        // reference at all the type's glyph stands there.
        for (index, field) in [(5, "artwork"), (6, "artwork"), (7, "appIcon"), (11, "image")] {
            let failed = try Self.cards(Self.full[index].1, pictures: CardPictures(failed: [field]))
            #expect(failed.light.hero == .glyph(.pictureUnavailable), "\(Self.full[index].0)")
            let absent = try Self.cards(Self.full[index].1)
            #expect(absent.light.hero != .glyph(.pictureUnavailable), "\(Self.full[index].0)")
        }
    }

    @Test func initialsAreStableAndScriptAware() {
        #expect(CardPalette.initialsColor(for: "Ada Lovelace") == CardPalette.initialsColor(for: "Ada Lovelace"))
        #expect(CardPalette.initialsColor(for: "Ada Lovelace") != CardPalette.initialsColor(for: "Grace Hopper"))
    }
}
