// Names the documentation's Swift examples assume (make docs-check compiles each example
// with this file beside it). Keep them plain: a reader sees only the example.
import Foundation
import JournalMedia

let url = URL(fileURLWithPath: "Samples/photo.heic")
let urls: [URL] = [URL(fileURLWithPath: "Samples/live/IMG_0002.JPG"), URL(fileURLWithPath: "Samples/live/IMG_0002.MOV")]
let bytes: [UInt8] = []
let upload: [UInt8] = []
let inputFolder = URL(fileURLWithPath: "Samples")
let outputFolder = URL(fileURLWithPath: "out")
let bundleURL = URL(fileURLWithPath: "Samples/suggestions/morning-run/suggestion.json")

func reject() {}
func log(_ error: AssetError) {}
func send(_ data: [UInt8], as format: RenditionFormat) {}
func store(_ renditions: [Rendition]) {}
func respond(_ status: Int) {}
