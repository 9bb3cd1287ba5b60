import FuzzSupport
import JournalMediaCore
import JournalMediaMetadata

/// libFuzzer entry: the input as a JPEG 2000 file (a JP2 box file or a bare codestream) through
/// the probe's container walk and date reading, and the SIZ read (`JPEG2000Size`) the still
/// decode makes before libvips sees the file.
@_cdecl("fuzz_jp2_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input (libFuzzer calls it by this C name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let data = pointer else { return 0 }  // libFuzzer passes a valid pointer, also for empty input
    FuzzSupport.exerciseStill(data, count, as: .jp2)
    let size = JPEG2000Size(MemoryBytes(bytes: Array(UnsafeRawBufferPointer(start: data, count: count))))
    _ = size?.firstComponentIsSubsampled
    return 0
}
