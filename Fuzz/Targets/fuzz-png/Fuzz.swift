import FuzzSupport
import JournalMediaCore
import JournalMediaMetadata

/// libFuzzer entry: the input as a .png file through the probe's container walk and date reading.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzSupport.exerciseStill(data, count, as: .png)
    return 0
}
