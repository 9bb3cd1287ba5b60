import Foundation
import JournalMediaCore

/// What a card shows, before colours are resolved: texts, hero, the type's hue, and any
/// background the item itself asks for (a reflection's colour, a state of mind's gradients).
struct CardContent {
    var headline: String
    var lines: [String] = []
    var chips: [String] = []
    var footnote: String?
    var badge: String?
    var hero: CardHero?
    /// Names in the headline that must not be broken across lines.
    var keepTogether: [String] = []
    /// The type's hue: accent colour and the seed of the default backgrounds.
    var seed: RGBColor
    var lightBackground: [RGBColor]?
    var darkBackground: [RGBColor]?
    var lightLocations: [Double]?
    var darkLocations: [Double]?
    var dates: [FormattedDate] = []
    var warnings: [String] = []

    func stopLocations(count: Int, appearance: CardSpec.Appearance) -> [Double] {
        let given = appearance == .light ? lightLocations : darkLocations
        if let given, given.count == count { return given }
        return (0..<count).map { count == 1 ? 0 : Double($0) / Double(count - 1) }
    }
}

/// The per-type table of the issue: which texts, hero and colours each item type's card has.
struct CardContentBuilder {
    let builder: CardSpecBuilder
    let pictures: CardPictures
    var format: CardTextFormatter { builder.formatter }

    static let seeds: [String: RGBColor] = [
        "workout": RGBColor(0x30, 0xD1, 0x58), "motionActivity": RGBColor(0xFF, 0x9F, 0x0A),
        "location": RGBColor(0x0A, 0x84, 0xFF), "song": RGBColor(0xFF, 0x37, 0x5F),
        "podcast": RGBColor(0xBF, 0x5A, 0xF2), "genericMedia": RGBColor(0x64, 0xD2, 0xFF),
        "eventPoster": RGBColor(0xFF, 0x45, 0x3A), "reflection": RGBColor(0x5E, 0x5C, 0xE6),
        "neutral": RGBColor(0x8E, 0x8E, 0x93),
    ]

    static func seed(_ name: String) -> RGBColor { seeds[name] ?? RGBColor(0x8E, 0x8E, 0x93) }

    func picture(_ field: String, _ shape: CardImageShape) -> CardHero? {
        pictures.fields.contains(field) ? .image(field: field, shape: shape) : nil
    }

    /// The hero where the item's picture would be: the "picture unavailable" glyph when the
    /// bundle referenced one that could not be used, else the type's glyph.
    func unavailable(_ field: String, or glyph: CardGlyph) -> CardHero {
        .glyph(pictures.failed.contains(field) ? .pictureUnavailable : glyph)
    }

    /// The card of a photo, Live Photo or video whose file could not be used: the
    /// "picture unavailable" glyph, the item's kind, the reason in words and its date.
    func unavailable(_ kind: String, fallback field: String, date value: SuggestionDate?) -> CardContent {
        if let hero = picture(field, .rounded) {
            var c = CardContent(headline: builder.suggestionTitle, hero: hero, seed: Self.seed("neutral"))
            c.footnote = date("date", value, into: &c)
            return c
        }
        var c = CardContent(headline: kind, hero: .glyph(.pictureUnavailable), seed: Self.seed("neutral"))
        c.lines = ["Picture unavailable"]
        c.footnote = date("date", value, into: &c)
        return c
    }

    func date(_ field: String, _ value: SuggestionDate?, into content: inout CardContent) -> String? {
        guard let value else { return nil }
        let text = format.dateTime(value.date)
        content.dates.append(FormattedDate(field: field, raw: value.raw, formatted: text))
        return text
    }

    func interval(_ field: String, _ value: SuggestionInterval?, into content: inout CardContent) -> String? {
        guard let value else { return nil }
        content.dates.append(FormattedDate(field: "\(field).start", raw: value.start.raw,
                                           formatted: format.dateTime(value.start.date)))
        content.dates.append(FormattedDate(field: "\(field).end", raw: value.end.raw,
                                           formatted: format.dateTime(value.end.date)))
        return format.range(value)
    }

    /// Media colours (`colors.card` of the artwork or icon) as light and dark backgrounds.
    func mediaColors(_ field: String, into content: inout CardContent) {
        guard let colors = pictures.colors[field],
              let light = try? RGBColor.parse(colors.light.background),
              let dark = try? RGBColor.parse(colors.dark.background) else { return }
        content.lightBackground = [light]
        content.darkBackground = [dark]
        content.seed = OKLab.fromLCh(l: 0.6, chroma: max(OKLab(dark).chroma, 0.08), hue: OKLab(dark).hue).rgb
    }

    func content(for item: SuggestionItem) -> CardContent {
        switch item.content {
        case .photo(let photo): return unavailable("Photo", fallback: "fallbackImage", date: photo.date)
        case .livePhoto(let live): return unavailable("Live Photo", fallback: "fallbackImage", date: live.date)
        case .video(let video): return unavailable("Video", fallback: "fallbackImage", date: video.date)
        case .workout(let workout): return self.workout(workout)
        case .workoutGroup(let group): return workoutGroup(group)
        case .contact(let contact): return self.contact(contact)
        case .location(let location): return self.location(location)
        case .locationGroup(let group): return locationGroup(group)
        case .song(let song):
            return media(kind: "song", headline: song.song ?? song.album ?? "Song",
                         lines: [song.artist, song.song == nil ? nil : song.album], date: song.date,
                         picture: "artwork", shape: .rounded, glyph: .music)
        case .podcast(let podcast):
            return media(kind: "podcast", headline: podcast.episode ?? podcast.show ?? "Podcast",
                         lines: [podcast.episode == nil ? nil : podcast.show], date: podcast.date,
                         picture: "artwork", shape: .rounded, glyph: .podcast)
        case .genericMedia(let media):
            return self.media(kind: "genericMedia", headline: media.title ?? media.album ?? "Media",
                              lines: [media.artist, media.title == nil ? nil : media.album], date: media.date,
                              picture: "appIcon", shape: .icon, glyph: .media)
        case .motionActivity(let motion): return self.motion(motion)
        case .reflection(let reflection):
            var c = CardContent(headline: reflection.prompt, seed: Self.seed("reflection"))
            if let hex = reflection.color, let color = try? RGBColor.parse(hex) {
                c.seed = color
                c.lightBackground = [color]
            }
            return c
        case .stateOfMind(let mood): return stateOfMind(mood)
        case .eventPoster(let event):
            var c = CardContent(headline: event.title, hero: picture("image", .rounded)
                                    ?? unavailable("image", or: .calendar),
                                seed: Self.seed("eventPoster"))
            var when: String?
            if let start = event.start, let end = event.end {
                when = interval("date", SuggestionInterval(start: start, end: end), into: &c)
                c.dates = c.dates.map { FormattedDate(field: $0.field == "date.start" ? "start" : "end", raw: $0.raw,
                                                      formatted: $0.formatted) }
            } else {
                when = date("start", event.start, into: &c) ?? date("end", event.end, into: &c)
            }
            c.lines = [event.placeName, when].compactMap { $0 }
            if event.isHost == true { c.badge = "Hosting" }
            return c
        case .unknown:
            var c = CardContent(headline: builder.suggestionTitle,
                                hero: picture("fallbackImage", .rounded)
                                    ?? unavailable("fallbackImage", or: .unknown),
                                seed: Self.seed("neutral"))
            c.footnote = interval("suggestion.date", builder.suggestionDate, into: &c)
            c.warnings.append(item.fallbackImage == nil
                              ? "unknown item type \"\(item.type)\" without a fallbackImage: shown as a neutral card"
                              : "unknown item type \"\(item.type)\": shown from its fallbackImage")
            return c
        }
    }

    func workoutStats(duration: Double?, distance: Double?, energy: Double?, heartRate: Double?) -> [String] {
        let first = [duration.map { format.duration(seconds: $0) }, distance.map { format.distance(meters: $0) }]
            .compactMap { $0 }.joined(separator: " · ")
        let second = [energy.map { format.energy(kcal: $0) }, heartRate.map { format.heartRate(bpm: $0) }]
            .compactMap { $0 }.joined(separator: " · ")
        return [first, second].filter { !$0.isEmpty }
    }

    func workoutName(_ workout: WorkoutItem, warnings: inout [String]) -> String {
        guard let details = workout.details else { return "Workout" }
        if let name = details.localizedName, !name.isEmpty { return name }
        if let name = WorkoutActivityNames.name(details.activityType) { return name }
        warnings.append("activityType \(details.activityType) is not in the HealthKit table: shown as \"Workout\"")
        return "Workout"
    }

    func workout(_ workout: WorkoutItem) -> CardContent {
        var c = CardContent(headline: "", seed: Self.seed("workout"))
        c.headline = workoutName(workout, warnings: &c.warnings)
        let details = workout.details
        c.lines = workoutStats(duration: details?.date?.duration, distance: details?.distanceMeters,
                               energy: details?.activeEnergyKcal, heartRate: details?.averageHeartRateBpm)
        c.footnote = interval("details.date", details?.date, into: &c)
        if let map = mapHero(workout.map, pins: [], routes: [workout.route]) {
            c.hero = map
        } else if workout.route.count >= 2 {
            c.hero = .frame(pins: [], routes: RouteProjection.drawable([workout.route]), scaleLabel: nil)
        } else {
            c.hero = picture("icon", .icon) ?? .glyph(details.map { WorkoutActivityNames.glyph($0.activityType) } ?? .workout)
        }
        return c
    }

    func workoutGroup(_ group: WorkoutGroupItem) -> CardContent {
        let n = group.workouts.count
        var c = CardContent(headline: n == 0 ? "Workouts" : "\(format.integer(n)) \(n == 1 ? "workout" : "workouts")",
                            seed: Self.seed("workout"))
        let intervals = group.workouts.compactMap { $0.details?.date }
        let summedDuration = intervals.isEmpty ? nil : intervals.reduce(0) { $0 + $1.duration }
        let distances = group.workouts.compactMap { $0.details?.distanceMeters }
        let energies = group.workouts.compactMap { $0.details?.activeEnergyKcal }
        c.lines = workoutStats(duration: group.durationSeconds ?? summedDuration,
                               distance: distances.isEmpty ? nil : distances.reduce(0, +),
                               energy: group.activeEnergyKcal ?? (energies.isEmpty ? nil : energies.reduce(0, +)),
                               heartRate: group.averageHeartRateBpm)
        var names: [String] = []
        for workout in group.workouts {
            let name = workoutName(workout, warnings: &c.warnings)
            if !names.contains(name) { names.append(name) }
        }
        if !names.isEmpty { c.lines.append(CardTextFormatter.list(names)) }
        if let start = intervals.min(by: { $0.start.date < $1.start.date })?.start,
           let end = intervals.max(by: { $0.end.date < $1.end.date })?.end {
            c.footnote = format.range(SuggestionInterval(start: start, end: end))
        }
        for (index, workout) in group.workouts.enumerated() {
            _ = interval("workouts[\(index)].details.date", workout.details?.date, into: &c)
        }
        let routes = group.workouts.map(\.route).filter { $0.count >= 2 }
        if !routes.isEmpty {
            c.hero = .frame(pins: [], routes: RouteProjection.drawable(routes), scaleLabel: nil)
        } else {
            c.hero = picture("icon", .icon) ?? .glyph(.workout)
        }
        return c
    }

    func contact(_ contact: ContactItem) -> CardContent {
        let disc = CardPalette.initialsColor(for: contact.name)
        var c = CardContent(headline: contact.name, seed: disc)
        if let photo = picture("photo", .circle) {
            c.hero = photo
        } else {
            let text = ForegroundChooser.choose(for: disc).foreground
            c.hero = .initials(Self.initials(contact.name), background: disc.hex, foreground: text)
        }
        return c
    }

    /// The first letters of the first and last words, upper-cased ("Ada Lovelace" → "AL");
    /// one character for single words and for scripts written without spaces ("山田太郎" → "山").
    static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0.isWhitespace || $0 == "-" }).filter { !$0.isEmpty }
        guard let first = words.first?.first else { return "?" }
        var result = String(first).uppercased()
        if words.count > 1, let last = words.last?.first { result += String(last).uppercased() }
        return result
    }

    func location(_ location: LocationItem) -> CardContent {
        var coordinates: String?
        if let lat = location.latitude, let lon = location.longitude, !builder.redactLocation {
            coordinates = format.coordinates(latitude: lat, longitude: lon)
        }
        var c = CardContent(headline: location.place ?? location.city ?? coordinates ?? "Location",
                            seed: Self.seed("location"))
        c.lines = [location.place == nil ? nil : location.city,
                   c.headline == coordinates ? nil : coordinates].compactMap { $0 }
        if let lat = location.latitude, let lon = location.longitude,
           let map = mapHero(location.map, pins: [(lat, lon, nil)], routes: []) {
            c.hero = map
        } else if location.latitude != nil && location.longitude != nil {
            c.hero = .frame(pins: [CardPin(point: CardPoint(x: 0.5, y: 0.5))], routes: [], scaleLabel: nil)
        } else {
            c.hero = .glyph(location.isWorkLocation == true ? .work : .pin)
        }
        if location.isWorkLocation == true { c.badge = "Work" }
        c.footnote = date("date", location.date, into: &c)
        return c
    }

    func locationGroup(_ group: LocationGroupItem) -> CardContent {
        let names = group.locations.compactMap { $0.place ?? $0.city }
        let n = group.locations.count
        let count = "\(format.integer(n)) \(n == 1 ? "place" : "places")"
        var c = CardContent(headline: names.isEmpty ? count : CardTextFormatter.list(names), seed: Self.seed("location"))
        c.keepTogether = names
        if !names.isEmpty { c.lines = [count] }
        let placed = group.locations.prefix(50).compactMap { location -> (Double, Double, String?)? in
            guard let lat = location.latitude, let lon = location.longitude else { return nil }
            return (lat, lon, location.place ?? location.city)
        }
        if let map = mapHero(group.map, pins: Array(placed), routes: []) {
            c.hero = map
        } else if placed.isEmpty {
            c.hero = .glyph(.pins)
        } else {
            let points = RouteProjection.unitFrame([placed.map { (latitude: $0.0, longitude: $0.1) }]).first ?? []
            let pins = zip(points, placed).map { CardPin(point: $0.0, label: $0.1.2) }
            c.hero = .frame(pins: pins, routes: [], scaleLabel: Self.span(placed.map { ($0.0, $0.1) }).map {
                "≈ " + format.distance(meters: $0) + " across"
            })
        }
        let dates = group.locations.compactMap(\.date).sorted { $0.date < $1.date }
        if let first = dates.first, let last = dates.last {
            c.footnote = first == last ? format.dateTime(first.date) : format.range(SuggestionInterval(start: first, end: last))
        }
        for (index, location) in group.locations.enumerated() {
            _ = date("locations[\(index)].date", location.date, into: &c)
        }
        return c
    }

    /// A song, podcast or other media item: its title as the headline, its other names as
    /// lines, its date as the footnote, its artwork (or app icon) as the hero and the source of
    /// the card's colours; the kind's glyph stands in when the picture is missing.
    func media(kind: String, headline: String, lines: [String?], date value: SuggestionDate?,
               picture field: String, shape: CardImageShape, glyph: CardGlyph) -> CardContent {
        var c = CardContent(headline: headline, hero: picture(field, shape) ?? unavailable(field, or: glyph),
                            seed: Self.seed(kind))
        c.lines = lines.compactMap { $0 }
        c.footnote = date("date", value, into: &c)
        mediaColors(field, into: &c)
        return c
    }

    /// The item's map picture as the hero, with its pins and routes placed by the map's
    /// region; nil without a map or when its picture did not decode (the frame is drawn then).
    func mapHero(_ map: SuggestionMap?, pins: [(Double, Double, String?)], routes: [[RoutePoint]]) -> CardHero? {
        guard let map, pictures.fields.contains("map") else { return nil }
        let region = map.region
        let placedPins = pins.map { CardPin(point: region.point(latitude: $0.0, longitude: $0.1), label: $0.2) }
        let placedRoutes = routes.filter { $0.count >= 2 }.map { route -> [CardPoint] in
            let stride = max(1, route.count / 2000)
            var points = Swift.stride(from: 0, to: route.count, by: stride).map {
                region.point(latitude: route[$0].latitude, longitude: route[$0].longitude)
            }
            if stride > 1, let last = route.last { points.append(region.point(latitude: last.latitude, longitude: last.longitude)) }
            return points
        }
        return .map(field: "map", region: region, pins: placedPins, routes: placedRoutes)
    }

    /// The east–west extent of the places in metres (at their mean latitude), or nil for one place.
    static func span(_ places: [(Double, Double)]) -> Double? {
        guard places.count > 1, let minLon = places.map(\.1).min(), let maxLon = places.map(\.1).max(),
              let minLat = places.map(\.0).min(), let maxLat = places.map(\.0).max() else { return nil }
        let meanLat = places.map(\.0).reduce(0, +) / Double(places.count)
        let east = (maxLon - minLon) * cos(meanLat * .pi / 180) * 111_320
        let north = (maxLat - minLat) * 110_574
        let span = max(east, north)
        return span.isFinite && span > 0 ? span : nil
    }

    func motion(_ motion: MotionActivityItem) -> CardContent {
        var c = CardContent(headline: format.steps(motion.steps), seed: Self.seed("motionActivity"))
        let glyph: CardGlyph
        switch motion.movementType {
        case "walking": c.lines = ["Walk"]; glyph = .walking
        case "running": c.lines = ["Run"]; glyph = .running
        case "runningWalking": c.lines = ["Walk & run"]; glyph = .walkRun
        case let other?:
            c.lines = [CardTextFormatter.words(other)]
            c.warnings.append("movementType \"\(other)\" is not known: shown as written")
            glyph = .steps
        case nil: glyph = .steps
        }
        c.hero = picture("icon", .icon) ?? .glyph(glyph)
        c.footnote = interval("date", motion.date, into: &c)
        return c
    }

    func stateOfMind(_ mood: StateOfMindItem) -> CardContent {
        var c = CardContent(headline: StateOfMindVocabulary.valenceClass(classification: mood.valenceClassification,
                                                                          valence: mood.valence),
                            seed: Self.seed("neutral"))
        c.lines = [StateOfMindVocabulary.kind(mood.kind)]
        c.chips = mood.labels.map(StateOfMindVocabulary.label) + mood.associations.map(StateOfMindVocabulary.association)
        c.footnote = date("date", mood.date, into: &c)
        let index = StateOfMindVocabulary.classIndex(classification: mood.valenceClassification, valence: mood.valence)
        c.seed = CardPalette.valenceSeeds[index]
        // The mood itself as the hero: a form in the given gradient's hues or the valence colour.
        let given = (mood.lightBackground ?? []).sorted { $0.location < $1.location }.compactMap { try? RGBColor.parse($0.color) }
        let hues = given.isEmpty ? [c.seed] : given
        let form = hues.enumerated().map { index, color in
            let lab = OKLab(color)
            let l = hues.count == 1 ? 0.78 : 0.80 - 0.18 * Double(index) / Double(hues.count - 1)
            return OKLab.fromLCh(l: l, chroma: max(0.12, min(0.2, lab.chroma * 1.6)), hue: lab.hue).rgb.hex
        }
        c.hero = .mood(colors: form.count == 1 ? [form[0], OKLab.fromLCh(l: 0.6, chroma: 0.15, hue: OKLab(hues[0]).hue).rgb.hex] : form,
                       valence: mood.valence)
        func stops(_ given: [GradientStop]?) -> ([RGBColor], [Double])? {
            guard let given, !given.isEmpty else { return nil }
            let sorted = given.sorted { $0.location < $1.location }
            return (sorted.compactMap { try? RGBColor.parse($0.color) }, sorted.map(\.location))
        }
        if let (colors, locations) = stops(mood.lightBackground) {
            (c.lightBackground, c.lightLocations) = (colors, locations)
        } else {
            c.lightBackground = CardPalette.valenceGradient(index: index, dark: false)
        }
        if let (colors, locations) = stops(mood.darkBackground) {
            (c.darkBackground, c.darkLocations) = (colors, locations)
        } else {
            c.darkBackground = CardPalette.valenceGradient(index: index, dark: true)
        }
        if StateOfMindVocabulary.kinds[mood.kind] == nil {
            c.warnings.append("kind \"\(mood.kind)\" is not known: shown as written")
        }
        if let value = mood.valenceClassification, !StateOfMindVocabulary.valenceClasses.contains(value) {
            c.warnings.append("valenceClassification \"\(value)\" is not known: shown as written")
        }
        let unknownLabels = mood.labels.filter { !StateOfMindVocabulary.labels.contains($0) }
        let unknownAssociations = mood.associations.filter { StateOfMindVocabulary.associations[$0] == nil }
        if !unknownLabels.isEmpty || !unknownAssociations.isEmpty {
            let sample = (unknownLabels + unknownAssociations).prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            c.warnings.append("\(unknownLabels.count + unknownAssociations.count) labels or associations not known "
                              + "(\(sample)): shown as written")
        }
        return c
    }
}
