import FuzzSupport
import JournalMediaCore
import JournalMediaHEIF
import JournalMediaMetadata

/// libFuzzer entry: the input as a .heic file through the probe's container walk and date reading.
@_cdecl("fuzz_heif_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input (libFuzzer calls it by this C name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let data = pointer else { return 0 }  // libFuzzer passes a valid pointer, also for empty input
    FuzzSupport.exerciseStill(data, count, as: .heic)
    _ = HEIFImageItems.primaryAndThumbnail(in: MemoryBytes(bytes: Array(UnsafeRawBufferPointer(start: data, count: count))))
    return 0
}
