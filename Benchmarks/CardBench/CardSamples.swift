// Hand-written card specs, one per item type in each appearance, standing in for what
// CardSpecBuilder makes from a bundle: the workload of card-bench and the README pictures.
import Foundation
import JournalMedia

struct CardSample {
    var name: String
    var spec: CardSpec
    var images: [String: DecodedImage]
}

/// A runner's loop: a closed route of `count` points wobbling round an ellipse, in the
/// unit frame (larger extent 0…1, the other centred).
func sampleRoute(count: Int, phase: Double = 0) -> [CardPoint] {
    (0..<count).map { index in
        let t = Double(index) / Double(max(1, count - 1)) * 2 * Double.pi * 0.92 + phase
        let wobble = 0.04 * sin(t * 7) + 0.02 * cos(t * 13)
        return CardPoint(x: 0.5 + (0.48 - wobble) * cos(t), y: 0.5 + (0.30 - wobble) * sin(t) * 1.1)
    }
}

/// A picture with some structure (a sky-to-sea gradient and a sun), made in memory.
func sampleArtwork(side: Int, hue: Int) throws -> DecodedImage {
    var rgb = [UInt8](repeating: 0, count: side * side * 3)
    for y in 0..<side {
        for x in 0..<side {
            let t = Double(y) / Double(side)
            let dx = Double(x) - Double(side) * 0.62, dy = Double(y) - Double(side) * 0.38
            let sun = dx * dx + dy * dy < Double(side * side) * 0.02
            let base: [Double] = t < 0.6
                ? [250 - 90 * t, 120 + 60 * t + Double(hue), 90 + 150 * t]
                : [30 + 40 * (1 - t), 70 + Double(hue) / 2, 120 + 60 * (1 - t)]
            let colour = sun ? [255.0, 226, 120] : base
            for c in 0..<3 { rgb[(y * side + x) * 3 + c] = UInt8(max(0, min(255, colour[c]))) }
        }
    }
    let image = try VipsImageHandle.copyingPackedRGB(rgb, width: side, height: side)
    return DecodedImage(image: image, hasRealTransparency: false)
}

func cardSamples(_ appearance: CardSpec.Appearance) throws -> [CardSample] {
    let light = appearance == .light
    let bg = light ? "#f7f4ef" : "#1c1b1f"
    let fg = light ? "#1a1a1a" : "#f4f1ec"
    let fg2 = light ? "#4a4a4a" : "#c9c5be"
    let accent = light ? "#c2410c" : "#fb923c"
    func spec(_ type: String, headline: String, lines: [String] = [], chips: [String] = [],
              footnote: String? = nil, badge: String? = nil, hero: CardHero?,
              background: CardBackground? = nil, foreground: String? = nil, secondary: String? = nil,
              accentColour: String? = nil, keepTogether: [String] = []) -> CardSpec {
        CardSpec(itemType: type, appearance: appearance, background: background ?? .solid(bg),
                 foreground: foreground ?? fg, secondaryForeground: secondary ?? fg2,
                 accent: accentColour ?? accent, headline: headline, lines: lines, chips: chips,
                 footnote: footnote, badge: badge, hero: hero, keepTogether: keepTogether)
    }
    let artwork = try sampleArtwork(side: 600, hue: 20)
    let poster = try sampleArtwork(side: 480, hue: 90)
    let moodTop = light ? "#fde68a" : "#78350f", moodBottom = light ? "#fdba74" : "#7c2d12"
    return [
        CardSample(name: "reflection", spec: spec(
            "reflection", headline: "What made you smile today, and who was there with you?",
            hero: nil, background: .solid(light ? "#dbeafe" : "#1e3a8a"),
            foreground: light ? "#0b1f4d" : "#ffffff", secondary: light ? "#1e3a8a" : "#dbeafe",
            accentColour: light ? "#1d4ed8" : "#bfdbfe"), images: [:]),
        CardSample(name: "stateOfMind", spec: spec(
            "stateOfMind", headline: "Pleasant", lines: ["Momentary emotion"],
            chips: ["Joyful", "Grateful", "Calm", "Hopeful", "Family", "Fitness", "Weather"],
            footnote: "Sat 4 Oct 2025, 18:20", hero: .mood(colors: ["#fbbf24", "#f97316"], valence: 0.55),
            background: .verticalGradient([CardGradientStop(color: moodTop, location: 0),
                                           CardGradientStop(color: moodBottom, location: 1)]),
            foreground: light ? "#1a1206" : "#fff7ed", secondary: light ? "#3f2a0a" : "#fed7aa",
            accentColour: light ? "#7c2d12" : "#fed7aa"), images: [:]),
        CardSample(name: "workout", spec: spec(
            "workout", headline: "Outdoor Run", lines: ["10,02 km · 52:10", "512 kcal · 151 bpm"],
            footnote: "Sa., 4. Okt. 2025, 08:00–08:52",
            hero: .frame(pins: [], routes: [sampleRoute(count: 900)], scaleLabel: nil)), images: [:]),
        CardSample(name: "workoutGroup", spec: spec(
            "workoutGroup", headline: "3 workouts", lines: ["2 h 05 min · 1,240 kcal"],
            footnote: "Saturday, 4 October 2025",
            hero: .frame(pins: [], routes: [sampleRoute(count: 300), sampleRoute(count: 200, phase: 1.6).map {
                CardPoint(x: $0.x * 0.6 + 0.2, y: $0.y * 0.6 + 0.2) }], scaleLabel: nil)), images: [:]),
        CardSample(name: "motionActivity", spec: spec(
            "motionActivity", headline: "12,345 steps", lines: ["Walk & run"],
            footnote: "07:00–19:30", hero: .glyph(.walkRun)), images: [:]),
        CardSample(name: "location", spec: spec(
            "location", headline: "Café Einstein Stammhaus", lines: ["Berlin", "52.5033° N, 13.3561° E"],
            footnote: "Sat 4 Oct 2025, 10:15", badge: "Work",
            hero: .frame(pins: [CardPin(point: CardPoint(x: 0.5, y: 0.5))], routes: [], scaleLabel: nil)), images: [:]),
        CardSample(name: "locationGroup", spec: spec(
            "locationGroup", headline: "Tempelhofer Feld, Markthalle Neun and Görlitzer Park",
            lines: ["3 places"], footnote: "Sat 4 Oct 2025",
            hero: .frame(pins: [CardPin(point: CardPoint(x: 0.1, y: 0.3), label: "Tempelhofer Feld"),
                                CardPin(point: CardPoint(x: 0.55, y: 0.7), label: "Markthalle Neun"),
                                CardPin(point: CardPoint(x: 0.9, y: 0.45), label: "Görlitzer Park")],
                         routes: [], scaleLabel: "≈ 4.2 km across"),
            keepTogether: ["Tempelhofer Feld", "Markthalle Neun", "Görlitzer Park"]), images: [:]),
        CardSample(name: "contact", spec: spec(
            "contact", headline: "Zoë Ångström-Núñez",
            hero: .initials("ZÅ", background: light ? "#7c3aed" : "#a78bfa", foreground: light ? "#ffffff" : "#1c1b1f")),
            images: [:]),
        CardSample(name: "song", spec: spec(
            "song", headline: "Ocean Eyes", lines: ["Billie Eilish", "dont smile at me"],
            footnote: "Sat 4 Oct 2025, 21:04", hero: .image(field: "artwork", shape: .rounded)),
            images: ["artwork": artwork]),
        CardSample(name: "contact-photo", spec: spec(
            "contact", headline: "Ada Lovelace", hero: .image(field: "photo", shape: .circle)),
            images: ["photo": poster]),
        CardSample(name: "photo-unavailable", spec: spec(
            "photo", headline: "Photo", lines: ["Picture unavailable"], footnote: "Sat 4 Oct 2025, 09:12",
            hero: .glyph(.pictureUnavailable)), images: [:]),
        CardSample(name: "podcast", spec: spec(
            "podcast", headline: "Episode 212: The quiet art of keeping a journal", lines: ["The Long Form Show"],
            footnote: "Sun 5 Oct 2025", hero: .glyph(.podcast)), images: [:]),
        CardSample(name: "genericMedia", spec: spec(
            "genericMedia", headline: "Chapter 7 — Северный ветер", lines: ["Audiobook"],
            hero: .glyph(.media)), images: [:]),
        CardSample(name: "eventPoster", spec: spec(
            "eventPoster", headline: "Jazz im Park", lines: ["Volkspark Friedrichshain"],
            footnote: "Sat 11 Oct, 19:00–22:30", badge: "Hosting",
            hero: .image(field: "image", shape: .rounded)), images: ["image": poster]),
        CardSample(name: "unknown", spec: spec(
            "unknown", headline: "Morning run along the river", footnote: "Sat 4 Oct 2025",
            hero: .glyph(.unknown)), images: [:]),
        CardSample(name: "scripts", spec: spec(
            "reflection", headline: "שלום · مرحبا · नमस्ते · สวัสดี · 你好 · こんにちは · 안녕하세요 · Привет · Γειά 👋🌍",
            lines: ["Ελληνικά, Русский, العربية, עברית"], hero: nil), images: [:]),
    ]
}
