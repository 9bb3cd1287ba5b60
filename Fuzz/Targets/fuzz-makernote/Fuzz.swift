import FuzzSupport
import JournalMediaMetadata

/// libFuzzer entry: the input as the raw bytes of an EXIF MakerNote (tag 0x927C).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = AppleMakerNote.parse(Array(UnsafeRawBufferPointer(start: data, count: count)))
    return 0
}
