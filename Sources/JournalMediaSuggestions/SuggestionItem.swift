import Foundation
import JournalMediaCore

/// One item of a suggestion: its id, its `type` as written, and the fields of that type.
/// A type the toolkit does not know is kept (`content == .unknown`) so it can still be
/// shown from its `fallbackImage` and reported.
public struct SuggestionItem: Sendable, Equatable {
    public var id: String
    /// The `type` text of the bundle (also for unknown types).
    public var type: String
    public var content: SuggestionItemContent
    /// The picture the picker itself drew, when the app sent one (relative path).
    public var fallbackImage: String?

    public init(id: String, type: String, content: SuggestionItemContent, fallbackImage: String? = nil) {
        self.id = id
        self.type = type
        self.content = content
        self.fallbackImage = fallbackImage
    }

    /// The item types of schema version 1, in the order of Apple's documentation.
    public static let knownTypes = [
        "photo", "livePhoto", "video", "workout", "workoutGroup", "contact", "location", "locationGroup",
        "song", "podcast", "genericMedia", "motionActivity", "reflection", "stateOfMind", "eventPoster",
    ]

    /// Photo, Live Photo and video items: their own files give the renditions; all other
    /// items get a rendered card.
    public var isMedia: Bool {
        switch content {
        case .photo, .livePhoto, .video: return true
        default: return false
        }
    }

    /// Every file the item references, as (field, relative path), in field order: the
    /// pictures inside the item (artwork, icons, photos, posters), then `fallbackImage`.
    /// Sub-objects are named by their path (`workouts[1].icon`).
    public var files: [(field: String, path: String)] {
        var list: [(String, String)] = []
        func add(_ field: String, _ path: String?) { if let path { list.append((field, path)) } }
        switch content {
        case .photo(let item): add("photo", item.photo)
        case .livePhoto(let item): add("image", item.image); add("video", item.video)
        case .video(let item): add("video", item.video)
        case .workout(let item): add("icon", item.icon); add("map", item.map?.picture)
        case .workoutGroup(let item):
            add("icon", item.icon)
            for (index, workout) in item.workouts.enumerated() { add("workouts[\(index)].icon", workout.icon) }
        case .contact(let item): add("photo", item.photo)
        case .location(let item): add("map", item.map?.picture)
        case .locationGroup(let item): add("map", item.map?.picture)
        case .reflection: break
        case .song(let item): add("artwork", item.artwork)
        case .podcast(let item): add("artwork", item.artwork)
        case .genericMedia(let item): add("appIcon", item.appIcon)
        case .motionActivity(let item): add("icon", item.icon)
        case .stateOfMind(let item): add("icon", item.icon)
        case .eventPoster(let item): add("image", item.image)
        case .unknown: break
        }
        add("fallbackImage", fallbackImage)
        return list
    }
}

/// The fields of each item type (see the bundle table in docs/suggestions.md).
public enum SuggestionItemContent: Sendable, Equatable {
    case photo(PhotoItem)
    case livePhoto(LivePhotoItem)
    case video(VideoItem)
    case workout(WorkoutItem)
    case workoutGroup(WorkoutGroupItem)
    case contact(ContactItem)
    case location(LocationItem)
    case locationGroup(LocationGroupItem)
    case song(SongItem)
    case podcast(PodcastItem)
    case genericMedia(GenericMediaItem)
    case motionActivity(MotionActivityItem)
    case reflection(ReflectionItem)
    case stateOfMind(StateOfMindItem)
    case eventPoster(EventPosterItem)
    /// A type this toolkit does not know; its fields are not read.
    case unknown
}

public struct PhotoItem: Sendable, Equatable {
    public var photo: String
    public var date: SuggestionDate?
}

public struct LivePhotoItem: Sendable, Equatable {
    /// The still (JPEG or HEIC).
    public var image: String
    /// The motion (MOV or MP4), paired with `image` by the bundle: no guessing.
    public var video: String
    public var date: SuggestionDate?
}

public struct VideoItem: Sendable, Equatable {
    public var video: String
    public var date: SuggestionDate?
}

public struct RoutePoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    /// Kept as written; not read (cards do not need it, and parsing a million would cost seconds).
    public var timestamp: String?
}

public struct WorkoutDetails: Sendable, Equatable {
    /// HealthKit `HKWorkoutActivityType` raw value (37 running, 52 walking, …).
    public var activityType: Int
    public var localizedName: String?
    public var activeEnergyKcal: Double?
    public var distanceMeters: Double?
    public var averageHeartRateBpm: Double?
    public var date: SuggestionInterval?
}

public struct WorkoutItem: Sendable, Equatable {
    public var icon: String?
    public var route: [RoutePoint]
    public var details: WorkoutDetails?
    /// A picture of the route's map made on the device (optional), and the region it shows.
    public var map: SuggestionMap? = nil
}

/// A map picture an app made on the device (e.g. with MapKit's snapshotter) for a place or
/// a route, and the region it shows: no map tiles are fetched on the server. The card
/// draws the pins or route onto it, placed by the region (linear in latitude and
/// longitude, close to the Mercator picture for the spans of a city).
public struct SuggestionMap: Sendable, Equatable {
    /// The picture's path in the bundle (field `map`).
    public var picture: String
    public var region: CardMapRegion

    public init(picture: String, region: CardMapRegion) {
        self.picture = picture
        self.region = region
    }
}

public struct WorkoutGroupItem: Sendable, Equatable {
    public var workouts: [WorkoutItem]
    public var icon: String?
    public var activeEnergyKcal: Double?
    public var averageHeartRateBpm: Double?
    public var durationSeconds: Double?
}

public struct ContactItem: Sendable, Equatable {
    public var name: String
    public var photo: String?
}

public struct LocationItem: Sendable, Equatable {
    public var place: String?
    public var city: String?
    public var latitude: Double?
    public var longitude: Double?
    public var date: SuggestionDate?
    public var isWorkLocation: Bool?
    /// A picture of the place's map (optional), and the region it shows.
    public var map: SuggestionMap? = nil
}

public struct LocationGroupItem: Sendable, Equatable {
    public var locations: [LocationItem]
    /// A picture of the places' map (optional), and the region it shows.
    public var map: SuggestionMap? = nil
}

public struct SongItem: Sendable, Equatable {
    public var song: String?
    public var artist: String?
    public var album: String?
    public var artwork: String?
    public var date: SuggestionDate?
}

public struct PodcastItem: Sendable, Equatable {
    public var episode: String?
    public var show: String?
    public var artwork: String?
    public var date: SuggestionDate?
}

public struct GenericMediaItem: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var appIcon: String?
    public var date: SuggestionDate?
}

public struct MotionActivityItem: Sendable, Equatable {
    public var steps: Int
    /// `walking`, `running`, `runningWalking`, or a value this toolkit does not know (kept).
    public var movementType: String?
    public var icon: String?
    public var date: SuggestionInterval?
}

public struct ReflectionItem: Sendable, Equatable {
    public var prompt: String
    /// `#RRGGBB`, resolved on the device from the SwiftUI colour.
    public var color: String?
}

public struct GradientStop: Sendable, Equatable {
    public var color: String
    public var location: Double
}

public struct StateOfMindItem: Sendable, Equatable {
    /// `momentaryEmotion`, `dailyMood`, or an unknown value (kept).
    public var kind: String
    /// −1 (very unpleasant) … 1 (very pleasant).
    public var valence: Double
    /// `veryUnpleasant` … `veryPleasant` (7 values), or an unknown value (kept).
    public var valenceClassification: String?
    /// HealthKit label names (`joyful`, …); unknown names are kept.
    public var labels: [String]
    /// HealthKit association names (`fitness`, …); unknown names are kept.
    public var associations: [String]
    public var icon: String?
    public var lightBackground: [GradientStop]?
    public var darkBackground: [GradientStop]?
    public var date: SuggestionDate?
}

public struct EventPosterItem: Sendable, Equatable {
    public var title: String
    public var placeName: String?
    public var image: String?
    public var start: SuggestionDate?
    public var end: SuggestionDate?
    public var isHost: Bool?
}
