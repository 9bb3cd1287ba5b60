import Foundation
import FuzzSupport
import JournalMediaCore
import JournalMediaSuggestions

/// libFuzzer entry: the input as a suggestion bundle's JSON, through the reader (limits,
/// types, relative paths) and, when it is accepted, the card specs of every item (text
/// formatting, palettes, chips), as `journal-media suggestion` and `POST /v1/suggestions` do
/// before anything is drawn.
@_cdecl("fuzz_bundle_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input (libFuzzer calls it by this C name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let pointer else { return 0 }
    let data = Data(bytes: pointer, count: count)
    guard let bundle = try? SuggestionBundleReader.read(data) else { return 0 }
    let builder = CardSpecBuilder(bundle: bundle)
    for item in bundle.suggestion.items { _ = builder.cards(for: item) }
    return 0
}
