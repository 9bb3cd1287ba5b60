import FuzzSupport
import JournalMediaCore

/// libFuzzer entry: the input as date text (EXIF, ISO 8601, RFC 1123, offsets, sub-seconds)
/// and as a file name (file-name dates).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
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
