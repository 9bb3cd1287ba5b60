import JournalMediaCore

/// Which part of a map picture a hero shows, and how large: the picture fills the hero box
/// (cropped, as a photo would be) when the route and pins fit in the part that shows;
/// otherwise it is shrunk until they do, shown as much as the picture has around them, and
/// centred in the box (a square map in a tile's wide band keeps the whole of a north–south
/// route instead of a band through its middle).
///
/// The content (route points, pins, in the picture's unit frame: 0…1 across its width and
/// down its height) is kept `padding` box pixels inside the shown picture's edges, so start
/// and end markers and pin heads are drawn whole. Pure arithmetic, made once per map hero.
struct CardMapWindow {
    /// The part of the picture shown, in picture pixels (whole pixels, inside the picture).
    let crop: (x: Int, y: Int, width: Int, height: Int)
    /// Where that part is drawn, relative to the box' top left, and its size there.
    private(set) var shown: (x: Int, y: Int, width: Int, height: Int)

    /// `content`: the unit-frame points to keep in view (empty: the centre of the picture).
    /// `padding`: box pixels kept free around them (left/right, top, bottom: a pin stands
    /// above its point).
    init(pictureWidth: Int, pictureHeight: Int, boxWidth: Int, boxHeight: Int, content: [CardPoint],
         padding: (side: Double, top: Double, bottom: Double)) {
        let pw = Double(max(1, pictureWidth)), ph = Double(max(1, pictureHeight))
        let bw = Double(max(1, boxWidth)), bh = Double(max(1, boxHeight))
        // The content's bounds in picture pixels, limited to the picture.
        var minX = pw / 2, maxX = pw / 2, minY = ph / 2, maxY = ph / 2
        let points = content.filter { $0.x.isFinite && $0.y.isFinite }
        if !points.isEmpty {
            minX = .infinity; maxX = -.infinity; minY = .infinity; maxY = -.infinity
            for point in points {
                let x = min(pw, max(0, point.x * pw)), y = min(ph, max(0, point.y * ph))
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        // Fill the box unless the content (with its padding) would not fit at that scale.
        var scale = max(bw / pw, bh / ph)
        let contentWidth = maxX - minX, contentHeight = maxY - minY
        if contentWidth > 0 { scale = min(scale, max(1e-6, bw - 2 * padding.side) / contentWidth) }
        if contentHeight > 0 { scale = min(scale, max(1e-6, bh - padding.top - padding.bottom) / contentHeight) }
        // The window: the box at that scale, centred on the content (padding included), kept in the picture.
        let windowWidth = min(pw, bw / scale), windowHeight = min(ph, bh / scale)
        let centreX = (minX + maxX) / 2
        let centreY = (minY - padding.top / scale + maxY + padding.bottom / scale) / 2
        let left = min(pw - windowWidth, max(0, centreX - windowWidth / 2))
        let top = min(ph - windowHeight, max(0, centreY - windowHeight / 2))
        let cropX = Int(left.rounded(.down)), cropY = Int(top.rounded(.down))
        let cropWidth = max(1, min(pictureWidth - cropX, Int((left + windowWidth).rounded(.up)) - cropX))
        let cropHeight = max(1, min(pictureHeight - cropY, Int((top + windowHeight).rounded(.up)) - cropY))
        crop = (cropX, cropY, cropWidth, cropHeight)
        let shownWidth = max(1, min(boxWidth, Int((Double(cropWidth) * scale).rounded())))
        let shownHeight = max(1, min(boxHeight, Int((Double(cropHeight) * scale).rounded())))
        shown = ((boxWidth - shownWidth) / 2, (boxHeight - shownHeight) / 2, shownWidth, shownHeight)
    }

    /// The same window drawn at `width`×`height` (what the resize made), centred in the box.
    func drawn(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> CardMapWindow {
        var window = self
        window.shown = ((boxWidth - width) / 2, (boxHeight - height) / 2, width, height)
        return window
    }

    /// Where a unit-frame point of the picture lands, relative to the box' top left.
    func place(_ point: CardPoint, pictureWidth: Int, pictureHeight: Int) -> (x: Double, y: Double) {
        let sx = Double(shown.width) / Double(crop.width), sy = Double(shown.height) / Double(crop.height)
        return (Double(shown.x) + (point.x * Double(pictureWidth) - Double(crop.x)) * sx,
                Double(shown.y) + (point.y * Double(pictureHeight) - Double(crop.y)) * sy)
    }
}
