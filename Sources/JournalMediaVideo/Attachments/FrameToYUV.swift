import CFFmpeg
import JournalMediaCore

/// Turns each decoded video frame into the encoder's input: 8-bit YUV 4:2:0, BT.709 limited
/// range, at the clip's size, turned upright by the display rotation. SDR frames take one
/// cached swscale pass with their own matrix and range; HLG/PQ/BT.2020 frames are tone-mapped
/// to RGB first (`HDRToneMapper`, the poster's curve) and then converted.
///
/// One per clip; costs one scaler per input format (cached), one pass per frame, plus a
/// plane copy per frame when rotated.
final class FrameToYUV {
    let width: Int, height: Int
    let rotation: Int
    let outputWidth: Int, outputHeight: Int
    private var scaler: OpaquePointer?

    init(width: Int, height: Int, rotation: Int, outputWidth: Int, outputHeight: Int) {
        self.width = width
        self.height = height
        self.rotation = rotation
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
    }

    // Only a scaler that was made: libswscale may never have been loaded (CLibavLoader).
    deinit { if let scaler { sws_freeContext(scaler) } }

    func convert(_ frame: LibavFrame) throws(LibavFailure) -> LibavFrame {
        let f = frame.pointer.pointee
        let wide = f.color_trc == AVCOL_TRC_ARIB_STD_B67 || f.color_trc == AVCOL_TRC_SMPTE2084
            || f.color_primaries == AVCOL_PRI_BT2020
        if wide, let rgb = try? HDRToneMapper.toneMap(frame, width: width, height: height) {
            return try rotated(try scaled(rgbPlanes: rgb))
        }
        let format = AVPixelFormat(rawValue: f.format)
        let fullRange = f.color_range == AVCOL_RANGE_JPEG || SDRFrameConverter.isJPEGRange(format)
        let matrix = SDRFrameConverter.matrix(f.colorspace, height: frame.height)
        return try rotated(try scale(frame.planes, width: frame.width, height: frame.height, format: format,
                                     matrix: matrix, fullRange: fullRange))
    }

    private func scaled(rgbPlanes rgb: [UInt8]) throws(LibavFailure) -> LibavFrame {
        let result = rgb.withUnsafeBufferPointer { buffer in
            Result { () throws(LibavFailure) -> LibavFrame in
                try scale(([buffer.baseAddress, nil, nil, nil, nil, nil, nil, nil], [Int32(width * 3), 0, 0, 0, 0, 0, 0, 0]),
                          width: width, height: height, format: AV_PIX_FMT_RGB24, matrix: SWS_CS_ITU709, fullRange: true)
            }
        }
        return try result.get()
    }

    private func scale(_ planes: (data: [UnsafePointer<UInt8>?], strides: [Int32]), width sourceWidth: Int,
                       height sourceHeight: Int, format: AVPixelFormat, matrix: Int32,
                       fullRange: Bool) throws(LibavFailure) -> LibavFrame {
        try LibavRuntime.configure(.swscale)
        scaler = sws_getCachedContext(scaler, Int32(sourceWidth), Int32(sourceHeight), format,
                                      Int32(width), Int32(height), AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
        guard let scaler else {
            throw LibavFailure("no swscale conversion from pixel format \(SDRFrameConverter.pixelFormatName(format))")
        }
        _ = sws_setColorspaceDetails(scaler, sws_getCoefficients(matrix), fullRange ? 1 : 0,
                                     sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16)
        let output = try LibavFrame.allocated(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        let written = output.planes
        let targetData = written.data.map { UnsafeMutablePointer(mutating: $0) }
        let rows = sws_scale(scaler, planes.data, planes.strides, 0, Int32(sourceHeight), targetData, written.strides)
        guard rows == Int32(height) else { throw LibavFailure("swscale converted \(rows) of \(height) rows") }
        return output
    }

    /// The frame turned `rotation` degrees clockwise (each plane; chroma at half size).
    private func rotated(_ frame: LibavFrame) throws(LibavFailure) -> LibavFrame {
        guard rotation == 90 || rotation == 180 || rotation == 270 else { return frame }
        let output = try LibavFrame.allocated(width: outputWidth, height: outputHeight, format: AV_PIX_FMT_YUV420P)
        let source = frame.planes, target = output.planes
        for plane in 0..<3 {
            let w = plane == 0 ? width : width / 2, h = plane == 0 ? height : height / 2
            guard let from = source.data[plane], let to = target.data[plane].map({ UnsafeMutablePointer(mutating: $0) })
            else { throw LibavFailure("frame without plane \(plane)") }
            Self.rotatePlane(from, stride: Int(source.strides[plane]), width: w, height: h,
                             into: to, stride: Int(target.strides[plane]), clockwise: rotation)
        }
        return output
    }

    /// Copies a `width` × `height` 8-bit plane turned clockwise by 90, 180 or 270 degrees.
    static func rotatePlane(_ source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int,
                            into target: UnsafeMutablePointer<UInt8>, stride targetStride: Int, clockwise degrees: Int) {
        for y in 0..<height {
            let row = source + y * stride
            for x in 0..<width {
                let (tx, ty): (Int, Int) = switch degrees {
                case 90: (height - 1 - y, x)
                case 180: (width - 1 - x, height - 1 - y)
                default: (y, width - 1 - x)
                }
                target[ty * targetStride + tx] = row[x]
            }
        }
    }
}
