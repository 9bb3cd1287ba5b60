import FuzzSupport
import JournalMediaMetadata

/// libFuzzer entry: the input as the raw bytes of an EXIF MakerNote (tag 0x927C).
@_cdecl("fuzz_makernote_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input (libFuzzer calls it by this C name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let data = pointer else { return 0 }  // libFuzzer passes a valid pointer, also for empty input
    _ = AppleMakerNote.parse(Array(UnsafeRawBufferPointer(start: data, count: count)))
    return 0
}
