import FuzzSupport

/// libFuzzer entry: the input as an XMP packet, through the capture-date resolution (every
/// XMP date property, then DateText on what is found).
@_cdecl("fuzz_xmp_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input (libFuzzer calls it by this C name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let data = pointer else { return 0 }  // libFuzzer passes a valid pointer, also for empty input
    FuzzSupport.resolveDates(exif: nil, xmp: Array(UnsafeRawBufferPointer(start: data, count: count)), texts: [])
    return 0
}
