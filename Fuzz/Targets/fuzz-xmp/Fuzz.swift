import FuzzSupport

/// libFuzzer entry: the input as an XMP packet, through the capture-date resolution (every
/// XMP date property, then DateText on what is found).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzSupport.resolveDates(exif: nil, xmp: Array(UnsafeRawBufferPointer(start: data, count: count)), texts: [])
    return 0
}
