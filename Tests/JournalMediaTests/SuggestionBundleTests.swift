import Foundation
import JournalMediaCore
import JournalMediaSuggestions
import Testing

/// The bundle reader: valid samples read, every kind of problem refused with its JSON path,
/// unknown types and values kept, the schema file in agreement with the reader's limits.
@Suite struct SuggestionBundleTests {
    static func bundle(items: String, extra: String = "") -> Data {
        Data(#"{"schemaVersion":1,"bundleId":"b1","timeZone":"Europe/Berlin","locale":"de_DE"\#(extra),"suggestion":{"title":"T","items":[\#(items)]}}"#.utf8)
    }

    static func error(_ data: Data) -> SuggestionBundleError? {
        do { _ = try SuggestionBundleReader.read(data); return nil } catch { return error }
    }

    static func sampleBundle(_ name: String) throws -> SuggestionBundle {
        try SuggestionBundleReader.read(contentsOf: TestSupport.sample("suggestions/\(name)/suggestion.json"))
    }

    @Test func samplesCoverAllFifteenTypes() throws {
        var types = Set<String>()
        for name in ["morning-run", "world-scripts", "edge-cases"] {
            let bundle = try Self.sampleBundle(name)
            types.formUnion(bundle.suggestion.items.map(\.type))
            #expect(bundle.suggestion.items.count <= 13)
        }
        #expect(Set(SuggestionItem.knownTypes).isSubset(of: types), "missing: \(Set(SuggestionItem.knownTypes).subtracting(types))")
    }

    @Test func theIssueExampleReadsWithEveryField() throws {
        let bundle = try Self.sampleBundle("morning-run")
        #expect(bundle.bundleId == "0b6c9f7e-3d1a-4d4e-9a53-2f1f3c0f9a11")
        #expect(bundle.timeZone.identifier == "Europe/Berlin")
        #expect(bundle.locale.identifier == "de_DE")
        #expect(abs((bundle.suggestion.date?.duration ?? 0) - 72 * 60) < 0.001)
        guard case .workout(let workout) = bundle.suggestion.items[2].content else {
            Issue.record("item 2 is not a workout"); return
        }
        #expect(workout.route.count == 1041)
        #expect(workout.route[0].latitude == 52.5201)
        #expect(workout.details?.activityType == 37)
        #expect(workout.details?.distanceMeters == 10021.7)
        #expect(abs((workout.details?.date?.duration ?? 0) - (52 * 60 + 10)) < 0.001)
        #expect(bundle.suggestion.items[2].files.map(\.field) == ["icon", "map"])
        // The map picture and the region it shows (centre and span).
        #expect(workout.map?.picture == "files/map.png" && workout.map?.region.centerLatitude == 52.5201)
        guard case .livePhoto(let live) = bundle.suggestion.items[1].content else {
            Issue.record("item 1 is not a Live Photo"); return
        }
        #expect(live.video == "files/live/IMG_0001.MOV")
    }

    @Test(arguments: [
        (#"{"id":"1","type":"motionActivity","steps":"many"}"#, "suggestion.items[0].steps", "expected an integer"),
        (#"{"id":"1","type":"motionActivity","steps":12.5}"#, "suggestion.items[0].steps", "expected an integer"),
        (#"{"id":"1","type":"motionActivity"}"#, "suggestion.items[0].steps", "missing (required)"),
        (#"{"id":"1","type":"reflection","prompt":"p","color":"blue"}"#, "suggestion.items[0].color", "is not a colour"),
        (#"{"id":"1","type":"stateOfMind","kind":"dailyMood","valence":1.5}"#, "suggestion.items[0].valence", "out of range"),
        (#"{"id":"1","type":"stateOfMind","kind":"dailyMood","valence":0,"labels":"happy"}"#, "suggestion.items[0].labels", "expected a list"),
        (#"{"id":"1","type":"photo"}"#, "suggestion.items[0].photo", "missing (required)"),
        (#"{"id":"1","type":"photo","photo":""}"#, "suggestion.items[0].photo", "expected a file path"),
        (#"{"id":"1","type":"photo","photo":"a.jpg","date":"yesterday"}"#, "suggestion.items[0].date", "RFC 3339"),
        (#"{"id":"1","type":"workout","route":[{"latitude":91,"longitude":0}]}"#, "suggestion.items[0].route[0].latitude", "out of range"),
        (#"{"id":"1","type":"workout","route":[{"latitude":1,"longitude":2},{"latitude":"north","longitude":0}]}"#, "suggestion.items[0].route[1].latitude", "expected a number"),
        (#"{"id":"1","type":"workout","route":[{"latitude":1}]}"#, "suggestion.items[0].route[0].longitude", "missing (required)"),
        (#"{"id":"1","type":"workout","route":[7]}"#, "suggestion.items[0].route[0]", "expected an object"),
        (#"{"id":"1","type":"workout","details":{"activityType":true}}"#, "suggestion.items[0].details.activityType", "expected an integer"),
        (#"{"id":"1","type":"location","isWorkLocation":"yes"}"#, "suggestion.items[0].isWorkLocation", "expected true or false"),
        (#"{"id":"1","type":"workoutGroup","workouts":[{"route":{}}]}"#, "suggestion.items[0].workouts[0].route", "expected a list"),
        (#"{"type":"photo","photo":"a.jpg"}"#, "suggestion.items[0].id", "missing (required)"),
        (#"{"id":"1","type":"reflection","prompt":"p"},{"id":"1","type":"reflection","prompt":"q"}"#, "suggestion.items[1].id", "earlier item"),
        (##"{"id":"1","type":"stateOfMind","kind":"dailyMood","valence":0,"lightBackground":[{"color":"#FFFFFF"}]}"##,
         "suggestion.items[0].lightBackground[0].location", "missing (required)"),
    ])
    func problemsAreNamedByTheirJSONPath(item: String, path: String, message: String) {
        let error = Self.error(Self.bundle(items: item))
        #expect(error?.path == path, "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func theIssuesExampleMessage() {
        let items = (0..<3).map { #"{"id":"\#($0)","type":"reflection","prompt":"p"}"# } + [#"{"id":"3","type":"motionActivity","steps":"x"}"#]
        let error = Self.error(Self.bundle(items: items.joined(separator: ",")))
        #expect(error?.description == "suggestion.items[3].steps: expected an integer")
    }

    @Test func wholeFileProblems() {
        #expect(Self.error(Data("not json".utf8))?.message.hasPrefix("not JSON") == true)
        #expect(Self.error(Data("[1,2]".utf8)) == SuggestionBundleError(path: "", message: "expected an object"))
        let v2 = Data(#"{"schemaVersion":2,"bundleId":"b","suggestion":{"title":"t","items":[]}}"#.utf8)
        #expect(Self.error(v2) == SuggestionBundleError(
            path: "schemaVersion", message: "version 2 is not supported; this toolkit reads version 1"))
        let unsafe = Data(#"{"schemaVersion":1,"bundleId":"../x","suggestion":{"title":"t","items":[]}}"#.utf8)
        #expect(Self.error(unsafe)?.path == "bundleId")
        let zone = Data(#"{"schemaVersion":1,"bundleId":"b","timeZone":"Mars/Olympus","suggestion":{"title":"t","items":[]}}"#.utf8)
        #expect(Self.error(zone)?.path == "timeZone")
        let items = (0..<14).map { #"{"id":"\#($0)","type":"reflection","prompt":"p"}"# }.joined(separator: ",")
        #expect(Self.error(Self.bundle(items: items))?.description == "suggestion.items: 14 entries, over the limit of 13")
    }

    @Test func unknownTypesAndValuesAreKept() throws {
        let data = Self.bundle(items: #"""
            {"id":"1","type":"boardingPass","fallbackImage":"f.png","gate":"B12"},
            {"id":"2","type":"motionActivity","steps":5,"movementType":"skipping"},
            {"id":"3","type":"stateOfMind","kind":"weeklyMood","valence":0,"valenceClassification":"ecstatic","labels":["starstruck"],"futureField":1}
            """#)
        let bundle = try SuggestionBundleReader.read(data)
        #expect(bundle.suggestion.items[0].content == .unknown)
        #expect(bundle.suggestion.items[0].type == "boardingPass")
        #expect(bundle.suggestion.items[0].files.map(\.path) == ["f.png"])
        guard case .motionActivity(let motion) = bundle.suggestion.items[1].content,
              case .stateOfMind(let mood) = bundle.suggestion.items[2].content else {
            Issue.record("wrong types"); return
        }
        #expect(motion.movementType == "skipping")
        #expect(mood.kind == "weeklyMood" && mood.valenceClassification == "ecstatic" && mood.labels == ["starstruck"])
    }

    @Test func nullMeansAbsentForOptionalFields() throws {
        let bundle = try SuggestionBundleReader.read(Self.bundle(
            items: #"{"id":"1","type":"song","song":null,"artwork":null,"date":null,"fallbackImage":null}"#))
        guard case .song(let song) = bundle.suggestion.items[0].content else { Issue.record("not a song"); return }
        #expect(song.song == nil && song.artwork == nil && song.date == nil)
        #expect(bundle.suggestion.items[0].fallbackImage == nil)
    }

    @Test func hostileSizesAreBounded() throws {
        // A 1 MB prompt is accepted (the card shortens it); one character more is refused.
        let prompt = String(repeating: "é", count: SuggestionBundleLimits.maxPromptLength)
        let ok = try SuggestionBundleReader.read(Self.bundle(items: #"{"id":"1","type":"reflection","prompt":"\#(prompt)"}"#))
        guard case .reflection(let reflection) = ok.suggestion.items[0].content else { Issue.record("not a reflection"); return }
        #expect(reflection.prompt.unicodeScalars.count == SuggestionBundleLimits.maxPromptLength)
        let over = Self.error(Self.bundle(items: #"{"id":"1","type":"reflection","prompt":"\#(prompt)x"}"#))
        #expect(over?.path == "suggestion.items[0].prompt")
        // 10,001 labels are refused; 10,000 are read.
        let labels = Array(repeating: #""joyful""#, count: SuggestionBundleLimits.maxLabels)
        let many = #"{"id":"1","type":"stateOfMind","kind":"dailyMood","valence":0,"labels":[\#(labels.joined(separator: ","))]}"#
        #expect(Self.error(Self.bundle(items: many)) == nil)
        let tooMany = many.replacingOccurrences(of: "[\"joyful\",", with: "[\"joyful\",\"joyful\",")
        #expect(Self.error(Self.bundle(items: tooMany))?.description
                == "suggestion.items[0].labels: 10001 entries, over the limit of 10000")
    }

    @Test func aMillionPointRouteIsReadAndDrawnWithinBounds() throws {
        // A ride of a million points, heading north and swinging east and west.
        let chunks = (0..<1000).map { chunk in
            (0..<1000).map { i -> String in
                let n = Double(chunk * 1000 + i)
                return #"{"latitude":\#(48 + n * 1e-6),"longitude":\#(11 + 0.05 * sin(n / 1e6 * 6 * .pi))}"#
            }.joined(separator: ",")
        }
        let json = #"{"id":"1","type":"workout","route":["# + chunks.joined(separator: ",") + "]}"
        let clock = ContinuousClock()
        let start = clock.now
        let bundle = try SuggestionBundleReader.read(Self.bundle(items: json))
        let cards = CardSpecBuilder(bundle: bundle).cards(for: bundle.suggestion.items[0])
        guard case .frame(_, let routes, _) = cards.light.hero else { Issue.record("no route"); return }
        #expect(routes.count == 1)
        #expect(routes[0].count <= RouteProjection.maxPoints)
        #expect(routes[0].count > 20, "a winding route keeps its shape")
        print("a million route points read and simplified in \(clock.now - start)")
        // One more point is refused with its path.
        let over = json.replacingOccurrences(of: "]}", with: #",{"latitude":0,"longitude":0}]}"#)
        #expect(Self.error(Self.bundle(items: over))?.path == "suggestion.items[0].route")
    }

    /// The committed JSON Schema states the same types and bounds as the reader.
    @Test func theSchemaAgreesWithTheReader() throws {
        let url = TestSupport.packageRoot.appendingPathComponent("Schemas/suggestion-bundle.v1.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let defs = try #require(schema["$defs"] as? [String: Any])
        let item = try #require(defs["item"] as? [String: Any])
        let branches = try #require(item["allOf"] as? [[String: Any]])
        let types = branches.compactMap { branch -> String? in
            ((branch["if"] as? [String: Any])?["properties"] as? [String: Any]).flatMap {
                ($0["type"] as? [String: Any])?["const"] as? String
            }
        }
        #expect(types == SuggestionItem.knownTypes)
        let text = try String(contentsOf: url, encoding: .utf8)
        for bound in [SuggestionBundleLimits.maxItems, SuggestionBundleLimits.maxPromptLength, SuggestionBundleLimits.maxLabels,
                      SuggestionBundleLimits.maxRoutePoints, SuggestionBundleLimits.maxTextLength,
                      SuggestionBundleLimits.maxPathLength] {
            #expect(text.contains(#""maxItems": \#(bound)"#) || text.contains(#""maxLength": \#(bound)"#), "\(bound)")
        }
    }
}

@Suite struct SuggestionMapTests {
    static func read(_ item: String) throws -> SuggestionItem {
        let json = #"{"schemaVersion":1,"bundleId":"m","suggestion":{"title":"T","items":["# + item + "]}}"
        return try SuggestionBundleReader.read(Data(json.utf8)).suggestion.items[0]
    }

    @Test func aMapRegionIsReadAsCentreAndSpanOrAsEdges() throws {
        let edges = try Self.read(#"{"id":"1","type":"location","latitude":37.5,"longitude":127,"map":"m.png","mapRegion":{"north":38,"south":37,"east":127.5,"west":126.5}}"#)
        guard case .location(let place) = edges.content, let map = place.map else { Issue.record("no map"); return }
        #expect(map.region == CardMapRegion(centerLatitude: 37.5, centerLongitude: 127, latitudeDelta: 1, longitudeDelta: 1))
        #expect(map.region.point(latitude: 37.5, longitude: 127) == CardPoint(x: 0.5, y: 0.5))
        #expect(map.region.point(latitude: 38, longitude: 126.5) == CardPoint(x: 0, y: 0), "north-west is the top left")
        #expect(edges.files.map(\.field) == ["map"])
        // Across the antimeridian.
        let pacific = try Self.read(#"{"id":"1","type":"locationGroup","locations":[],"map":"m.png","mapRegion":{"north":1,"south":-1,"east":-179,"west":179}}"#)
        guard case .locationGroup(let group) = pacific.content else { Issue.record("no group"); return }
        #expect(group.map?.region.longitudeDelta == 2 && abs(abs(group.map?.region.centerLongitude ?? 0) - 180) < 1e-9)
    }

    @Test func aMapWithoutItsRegionAndARegionWithoutItsMapAreRefused() throws {
        #expect(throws: SuggestionBundleError.self) {
            try Self.read(#"{"id":"1","type":"workout","map":"m.png"}"#)
        }
        #expect(throws: SuggestionBundleError.self) {
            try Self.read(#"{"id":"1","type":"workout","mapRegion":{"centerLatitude":1,"centerLongitude":2,"latitudeDelta":0.1,"longitudeDelta":0.1}}"#)
        }
    }

    @Test func theCardUsesTheMapPictureOnlyWhenItDecoded() throws {
        let item = try Self.read(#"{"id":"1","type":"locationGroup","locations":[{"place":"A","latitude":37.6,"longitude":126.9},{"place":"B","latitude":37.4,"longitude":127.1}],"map":"m.png","mapRegion":{"north":38,"south":37,"east":127.5,"west":126.5}}"#)
        let bundle = try SuggestionBundleReader.read(Data(#"{"schemaVersion":1,"bundleId":"m","suggestion":{"title":"T","items":[]}}"#.utf8))
        let builder = CardSpecBuilder(bundle: bundle)
        let withMap = builder.cards(for: item, pictures: CardPictures(fields: ["map"]))
        guard case .map(let field, _, let pins, _) = withMap.light.hero else { Issue.record("no map hero"); return }
        #expect(field == "map" && withMap.imageFields == ["map"])
        #expect(pins.map(\.label) == ["A", "B"])
        #expect(abs(pins[0].point.x - 0.4) < 1e-9 && abs(pins[0].point.y - 0.4) < 1e-9)
        // The picture failed: the abstract frame with the pins, as without a map.
        let without = builder.cards(for: item, pictures: CardPictures(failed: ["map"]))
        guard case .frame(let framed, _, _) = without.light.hero else { Issue.record("no frame"); return }
        #expect(framed.count == 2)
    }
}
