import Foundation
import JournalMediaCore

/// Reads and validates a suggestion bundle (`suggestion.json`, schema version 1) in one
/// pass: every field is checked for its type, range and length (`SuggestionBundleLimits`)
/// as it is read, and the first problem is thrown with its JSON path. Unknown keys are
/// ignored (newer apps may send more); `null` counts as absent for optional fields; an
/// unknown item `type` and unknown enumeration values are kept, not refused.
///
/// Runs once per bundle, before any file is touched; costs one JSON parse, linear in the
/// file's size.
public enum SuggestionBundleReader {
    /// Validates `data` and returns the bundle, or throws the first problem found.
    public static func read(_ data: Data) throws(SuggestionBundleError) -> SuggestionBundle {
        guard data.count <= SuggestionBundleLimits.maxFileBytes else {
            throw SuggestionBundleError(
                path: "", message: "the file is \(data.count) bytes, over the limit of \(SuggestionBundleLimits.maxFileBytes)")
        }
        do {
            return try JSONDecoder().decode(BundleRoot.self, from: data).bundle
        } catch let error as SuggestionBundleError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw SuggestionBundleError(path: "", message: "expected a JSON object")
        } catch {
            throw SuggestionBundleError(path: "", message: "not JSON (\(Self.reason(error)))")
        }
    }

    /// Reads the file at `url` (refusing files over the size limit before reading them).
    public static func read(contentsOf url: URL) throws(SuggestionBundleError) -> SuggestionBundle {
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
           size > SuggestionBundleLimits.maxFileBytes {
            throw SuggestionBundleError(
                path: "", message: "the file is \(size) bytes, over the limit of \(SuggestionBundleLimits.maxFileBytes)")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SuggestionBundleError(path: "", message: "cannot read the file (\(error.localizedDescription))")
        }
        return try read(data)
    }

    private static func reason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError {
                return "\(underlying)".replacingOccurrences(of: "\n", with: " ")
            }
            return context.debugDescription
        }
        return "\(error)"
    }
}

/// The decoding entry point: walks the JSON by hand through `JSONFields` so that every
/// error carries its path and plain words.
private struct BundleRoot: Decodable {
    let bundle: SuggestionBundle

    init(from decoder: any Decoder) throws {
        let root = try JSONFields(decoder: decoder, path: "")
        let version = try root.integer("schemaVersion", required: true) ?? 0
        guard version == SuggestionBundle.schemaVersion else {
            throw SuggestionBundleError(
                path: "schemaVersion",
                message: "version \(version) is not supported; this toolkit reads version \(SuggestionBundle.schemaVersion)")
        }
        let bundleId = try root.string("bundleId", required: true, maxLength: 128) ?? ""
        guard Self.isSafeFolderName(bundleId) else {
            throw SuggestionBundleError(
                path: "bundleId",
                message: "\"\(bundleId)\" cannot name a folder: use letters, digits, '.', '_' and '-', starting with a letter or digit")
        }
        var timeZone = TimeZone(identifier: "UTC") ?? TimeZone.current
        if let name = try root.string("timeZone", maxLength: 64) {
            guard let zone = TimeZone(identifier: name) else {
                throw SuggestionBundleError(path: "timeZone", message: "\"\(name)\" is not an IANA time zone (e.g. Europe/Berlin)")
            }
            timeZone = zone
        }
        var locale = Locale(identifier: "en_US")
        if let name = try root.string("locale", maxLength: 64) {
            guard name.range(of: #"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$"#, options: .regularExpression) != nil else {
                throw SuggestionBundleError(path: "locale", message: "\"\(name)\" is not a locale identifier (e.g. de_DE)")
            }
            locale = Locale(identifier: name)
        }
        guard let suggestion = try root.object("suggestion", required: true) else {
            throw SuggestionBundleError(path: "suggestion", message: "missing")
        }
        let title = try suggestion.string("title", required: true) ?? ""
        let date = try suggestion.interval("date")
        var items: [SuggestionItem] = []
        let list = try suggestion.list("items", required: true, maxCount: SuggestionBundleLimits.maxItems)
        for index in list?.indices ?? 0..<0 {
            guard let fields = try list?.object(at: index) else { continue }
            items.append(try Self.item(fields))
        }
        var seen = Set<String>()
        for (index, item) in items.enumerated() where !seen.insert(item.id).inserted {
            throw SuggestionBundleError(path: "suggestion.items[\(index)].id", message: "\"\(item.id)\" is used by an earlier item")
        }
        bundle = SuggestionBundle(bundleId: bundleId, timeZone: timeZone, locale: locale,
                                  suggestion: Suggestion(title: title, date: date, items: items))
    }

    static func isSafeFolderName(_ name: String) -> Bool {
        name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"#, options: .regularExpression) != nil
    }

    static func item(_ f: JSONFields) throws -> SuggestionItem {
        let id = try f.string("id", required: true, maxLength: 256) ?? ""
        let type = try f.string("type", required: true, maxLength: 256) ?? ""
        let fallback = try f.file("fallbackImage")
        let content: SuggestionItemContent
        switch type {
        case "photo":
            content = .photo(PhotoItem(photo: try f.file("photo", required: true) ?? "", date: try f.date("date")))
        case "livePhoto":
            content = .livePhoto(LivePhotoItem(image: try f.file("image", required: true) ?? "",
                                               video: try f.file("video", required: true) ?? "", date: try f.date("date")))
        case "video":
            content = .video(VideoItem(video: try f.file("video", required: true) ?? "", date: try f.date("date")))
        case "workout":
            content = .workout(try workout(f))
        case "workoutGroup":
            var workouts: [WorkoutItem] = []
            if let list = try f.list("workouts", maxCount: SuggestionBundleLimits.maxWorkouts) {
                for index in list.indices { workouts.append(try workout(try list.object(at: index))) }
            }
            content = .workoutGroup(WorkoutGroupItem(
                workouts: workouts, icon: try f.file("icon"),
                activeEnergyKcal: try f.number("activeEnergyKcal", in: 0...1e7),
                averageHeartRateBpm: try f.number("averageHeartRateBpm", in: 0...1000),
                durationSeconds: try f.number("durationSeconds", in: 0...1e9)))
        case "contact":
            content = .contact(ContactItem(name: try f.string("name", required: true) ?? "", photo: try f.file("photo")))
        case "location":
            content = .location(try location(f))
        case "locationGroup":
            var locations: [LocationItem] = []
            if let list = try f.list("locations", maxCount: SuggestionBundleLimits.maxLocations) {
                for index in list.indices { locations.append(try location(try list.object(at: index))) }
            }
            content = .locationGroup(LocationGroupItem(locations: locations, map: try map(f)))
        case "song":
            content = .song(SongItem(song: try f.string("song"), artist: try f.string("artist"), album: try f.string("album"),
                                     artwork: try f.file("artwork"), date: try f.date("date")))
        case "podcast":
            content = .podcast(PodcastItem(episode: try f.string("episode"), show: try f.string("show"),
                                           artwork: try f.file("artwork"), date: try f.date("date")))
        case "genericMedia":
            content = .genericMedia(GenericMediaItem(
                title: try f.string("title"), artist: try f.string("artist"), album: try f.string("album"),
                appIcon: try f.file("appIcon"), date: try f.date("date")))
        case "motionActivity":
            content = .motionActivity(MotionActivityItem(
                steps: try f.integer("steps", required: true, in: 0...100_000_000) ?? 0,
                movementType: try f.string("movementType", maxLength: 256), icon: try f.file("icon"),
                date: try f.interval("date")))
        case "reflection":
            content = .reflection(ReflectionItem(
                prompt: try f.string("prompt", required: true, maxLength: SuggestionBundleLimits.maxPromptLength) ?? "",
                color: try f.color("color")))
        case "stateOfMind":
            content = .stateOfMind(StateOfMindItem(
                kind: try f.string("kind", required: true, maxLength: 256) ?? "",
                valence: try f.number("valence", required: true, in: -1...1) ?? 0,
                valenceClassification: try f.string("valenceClassification", maxLength: 256),
                labels: try f.strings("labels"), associations: try f.strings("associations"),
                icon: try f.file("icon"), lightBackground: try gradient(f, "lightBackground"),
                darkBackground: try gradient(f, "darkBackground"), date: try f.date("date")))
        case "eventPoster":
            content = .eventPoster(EventPosterItem(
                title: try f.string("title", required: true) ?? "", placeName: try f.string("placeName"),
                image: try f.file("image"), start: try f.date("start"), end: try f.date("end"),
                isHost: try f.boolean("isHost")))
        default:
            content = .unknown
        }
        return SuggestionItem(id: id, type: type, content: content, fallbackImage: fallback)
    }

    static func workout(_ f: JSONFields) throws -> WorkoutItem {
        let route = try f.route("route")
        var details: WorkoutDetails?
        if let d = try f.object("details") {
            details = WorkoutDetails(
                activityType: try d.integer("activityType", required: true, in: 0...1_000_000) ?? 0,
                localizedName: try d.string("localizedName"),
                activeEnergyKcal: try d.number("activeEnergyKcal", in: 0...1e7),
                distanceMeters: try d.number("distanceMeters", in: 0...1e9),
                averageHeartRateBpm: try d.number("averageHeartRateBpm", in: 0...1000),
                date: try d.interval("date"))
        }
        return WorkoutItem(icon: try f.file("icon"), route: route, details: details, map: try map(f))
    }

    static func location(_ f: JSONFields) throws -> LocationItem {
        LocationItem(place: try f.string("place"), city: try f.string("city"),
                     latitude: try f.number("latitude", in: -90...90), longitude: try f.number("longitude", in: -180...180),
                     date: try f.date("date"), isWorkLocation: try f.boolean("isWorkLocation"), map: try map(f))
    }

    /// `map` (a picture) with `mapRegion`: either its centre and span
    /// (`centerLatitude`, `centerLongitude`, `latitudeDelta`, `longitudeDelta`) or its edges
    /// (`north`, `south`, `east`, `west`). A region without a picture is refused, and so is
    /// a picture without a region (the pins could not be placed on it).
    static func map(_ f: JSONFields) throws -> SuggestionMap? {
        let picture = try f.file("map")
        guard let region = try f.object("mapRegion") else {
            if picture != nil { throw SuggestionBundleError(path: f.path("mapRegion"), message: "a map picture needs its mapRegion") }
            return nil
        }
        guard let picture else { throw SuggestionBundleError(path: f.path("map"), message: "a mapRegion needs its map picture") }
        if let north = try region.number("north", in: -90...90) {
            let south = try region.number("south", required: true, in: -90...90) ?? 0
            let east = try region.number("east", required: true, in: -180...180) ?? 0
            let west = try region.number("west", required: true, in: -180...180) ?? 0
            guard north > south, east != west else {
                throw SuggestionBundleError(path: region.path("north"), message: "north must be above south and east differ from west")
            }
            // Across the antimeridian east is smaller than west.
            let width = east > west ? east - west : east + 360 - west
            var center = west + width / 2
            if center > 180 { center -= 360 }
            return SuggestionMap(picture: picture, region: CardMapRegion(
                centerLatitude: (north + south) / 2, centerLongitude: center, latitudeDelta: north - south, longitudeDelta: width))
        }
        return SuggestionMap(picture: picture, region: CardMapRegion(
            centerLatitude: try region.number("centerLatitude", required: true, in: -90...90) ?? 0,
            centerLongitude: try region.number("centerLongitude", required: true, in: -180...180) ?? 0,
            latitudeDelta: try region.number("latitudeDelta", required: true, in: 1e-7...180) ?? 1,
            longitudeDelta: try region.number("longitudeDelta", required: true, in: 1e-7...360) ?? 1))
    }

    static func gradient(_ f: JSONFields, _ key: String) throws -> [GradientStop]? {
        guard let list = try f.list(key, maxCount: SuggestionBundleLimits.maxGradientStops) else { return nil }
        var stops: [GradientStop] = []
        for index in list.indices {
            let stop = try list.object(at: index)
            stops.append(GradientStop(color: try stop.color("color", required: true) ?? "#000000",
                                      location: try stop.number("location", required: true, in: 0...1) ?? 0))
        }
        return stops
    }
}
