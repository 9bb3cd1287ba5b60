import CResampleKernel

/// Samples above 8 bits (a 10- or 12-bit HEIF's planes as libavcodec decodes them: one
/// little-endian 16-bit word each) narrowed to 8 bits, rounding (`jm_narrow_samples`), so
/// the 8-bit resampler takes them. The output is 8-bit anyway; rounding here costs at most
/// half a step of the final value before the conversion to RGB.
///
/// Runs per row of every tile of a high-bit-depth HEIC; costs one pass over the samples.
package enum PlaneNarrowing {
    /// `count` samples of `bitDepth` (9–16) bits from `source` (2 bytes each) into `target`.
    package static func narrow(_ source: UnsafePointer<UInt8>, count: Int, bitDepth: Int,
                               into target: UnsafeMutablePointer<UInt8>) {
        UnsafeRawPointer(source).withMemoryRebound(to: UInt16.self, capacity: count) { words in
            jm_narrow_samples(words, count, UInt32(max(0, bitDepth - 8)), target)
        }
    }
}
