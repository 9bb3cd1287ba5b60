import JournalMediaCore

/// HealthKit's `HKWorkoutActivityType` raw values → an English name and a card glyph, for
/// workouts whose bundle gives no `localizedName`. Unknown values (newer HealthKit) get
/// "Workout" and the generic glyph. A dictionary lookup.
public enum WorkoutActivityNames {
    public static let names: [Int: String] = [
        1: "American Football", 2: "Archery", 3: "Australian Football", 4: "Badminton", 5: "Baseball",
        6: "Basketball", 7: "Bowling", 8: "Boxing", 9: "Climbing", 10: "Cricket", 11: "Cross Training",
        12: "Curling", 13: "Cycling", 14: "Dance", 15: "Dance Inspired Training", 16: "Elliptical",
        17: "Equestrian Sports", 18: "Fencing", 19: "Fishing", 20: "Functional Strength Training", 21: "Golf",
        22: "Gymnastics", 23: "Handball", 24: "Hiking", 25: "Hockey", 26: "Hunting", 27: "Lacrosse",
        28: "Martial Arts", 29: "Mind and Body", 30: "Mixed Metabolic Cardio Training", 31: "Paddle Sports",
        32: "Play", 33: "Preparation and Recovery", 34: "Racquetball", 35: "Rowing", 36: "Rugby", 37: "Running",
        38: "Sailing", 39: "Skating", 40: "Snow Sports", 41: "Soccer", 42: "Softball", 43: "Squash",
        44: "Stair Climbing", 45: "Surfing", 46: "Swimming", 47: "Table Tennis", 48: "Tennis",
        49: "Track and Field", 50: "Traditional Strength Training", 51: "Volleyball", 52: "Walking",
        53: "Water Fitness", 54: "Water Polo", 55: "Water Sports", 56: "Wrestling", 57: "Yoga", 58: "Barre",
        59: "Core Training", 60: "Cross Country Skiing", 61: "Downhill Skiing", 62: "Flexibility",
        63: "High Intensity Interval Training", 64: "Jump Rope", 65: "Kickboxing", 66: "Pilates",
        67: "Snowboarding", 68: "Stairs", 69: "Step Training", 70: "Wheelchair Walk Pace",
        71: "Wheelchair Run Pace", 72: "Tai Chi", 73: "Mixed Cardio", 74: "Hand Cycling", 75: "Disc Sports",
        76: "Fitness Gaming", 77: "Cardio Dance", 78: "Social Dance", 79: "Pickleball", 80: "Cooldown",
        82: "Swim Bike Run", 83: "Transition", 84: "Underwater Diving", 3000: "Other",
    ]

    /// The English name, or nil for a value HealthKit did not have when this table was made.
    public static func name(_ activityType: Int) -> String? { names[activityType] }

    public static func glyph(_ activityType: Int) -> CardGlyph {
        switch activityType {
        case 37, 71: return .running
        case 52, 70: return .walking
        case 13, 74: return .cycling
        case 46, 53, 54, 84: return .swimming
        case 24, 9: return .hiking
        case 57, 29, 62, 66, 72, 33, 80: return .yoga
        case 20, 50, 59, 11: return .strength
        case 14, 15, 77, 78, 58: return .dance
        default: return .workout
        }
    }
}
