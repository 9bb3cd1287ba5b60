import Testing

/// The corner markers of the sample scene (see Tests/SampleMaker/scene.py), in display
/// orientation: red top-left, blue top-right, green bottom-left, white bottom-right.
enum Marker {
    static let red: [Double] = [230, 20, 20]
    static let blue: [Double] = [20, 40, 230]
    static let green: [Double] = [20, 200, 40]
    static let white: [Double] = [250, 250, 250]
}

/// Whether the first three bands of `pixel` are each within `tolerance` of `expected`.
func colour(_ pixel: [Double], isNear expected: [Double], tolerance: Double = 25) -> Bool {
    guard pixel.count >= 3 else { return false }
    return zip(pixel.prefix(3), expected).allSatisfy { abs($0 - $1) <= tolerance }
}

/// Checks the four corner markers of a rendition of the sample scene.
func expectUprightMarkers(_ image: TestImage, tolerance: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let inset = max(3, image.width * 20 / 600)
    let corners: [(String, Int, Int, [Double])] = [
        ("top-left red", inset, inset, Marker.red),
        ("top-right blue", image.width - 1 - inset, inset, Marker.blue),
        ("bottom-left green", inset, image.height - 1 - inset, Marker.green),
        ("bottom-right white", image.width - 1 - inset, image.height - 1 - inset, Marker.white),
    ]
    for (name, x, y, expected) in corners {
        let seen = try image.mean(around: x, y, size: 5)
        #expect(colour(seen, isNear: expected, tolerance: tolerance),
                "\(name) marker: saw \(seen.map { Int($0) }), expected about \(expected.map { Int($0) })",
                sourceLocation: sourceLocation)
    }
}
