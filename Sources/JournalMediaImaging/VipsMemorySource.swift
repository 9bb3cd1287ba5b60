import CVips
import JournalMediaCore

/// A libvips source (`VipsSource`) reading bytes the caller holds, for loaders that have a
/// source variant but no buffer one (the Netpbm/PFM loader, `ppmload_source`, in 8.14).
///
/// Made per header read or decode of such a file; costs one small GObject, no copy: the bytes
/// are borrowed, so the caller keeps them alive until the images loaded from it are gone (as
/// for `VipsArgument.borrowedBlob`). The reference is dropped in `deinit`; the loader holds
/// its own while it needs the source.
final class VipsMemorySource {
    let pointer: UnsafeMutablePointer<VipsSource>

    init(borrowing bytes: UnsafeRawBufferPointer) throws(VipsError) {
        try VipsRuntime.ensure()
        guard let base = bytes.baseAddress, let source = vips_source_new_from_memory(base, bytes.count) else {
            throw VipsError(message: "cannot make a libvips source for the input: \(VipsRuntime.failureMessage("source"))")
        }
        pointer = source
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
