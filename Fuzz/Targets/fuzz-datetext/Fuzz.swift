import FuzzSupport
import JournalMediaCore

/// libFuzzer entry: the input as date text (EXIF, ISO 8601, RFC 1123, offsets, sub-seconds)
/// and as a file name (file-name dates).
@_cdecl("fuzz_datetext_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input (libFuzzer calls it by this C name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let data = pointer else { return 0 }  // libFuzzer passes a valid pointer, also for empty input
    let text = FuzzSupport.text(data, count)
    _ = DateText.dateTime(text, allowDateOnly: true)
    _ = DateText.dateTime(text)
    _ = DateText.rfc1123(text)
    _ = DateText.offsetMinutes(text)
    _ = DateText.subSecondMilliseconds(text)
    _ = FileNameDate.parse(text)
    FuzzSupport.resolveDates(exif: nil, xmp: nil, texts: [("Creation Time", text)])
    return 0
}
