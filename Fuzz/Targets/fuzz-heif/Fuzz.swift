import FuzzSupport
import JournalMediaCore
import JournalMediaMetadata

/// libFuzzer entry: the input as a .heic file through the probe's container walk and date reading.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzSupport.exerciseStill(data, count, as: .heic)
    _ = HEIFImageItems.primaryAndThumbnail(in: MemoryBytes(bytes: Array(UnsafeRawBufferPointer(start: data, count: count))))
    return 0
}
