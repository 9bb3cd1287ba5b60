import CFFmpeg
import JournalMediaCore

/// Tone-maps one HDR (HLG `arib-std-b67`, PQ `smpte2084`) or BT.2020 frame to SDR BT.709,
/// packed 8-bit RGB at a given size, through a libavfilter graph:
///
///     zscale   resize + linearise from the frame's own transfer/primaries/matrix/range
///              (nominal peak 100 cd/m², so HLG/PQ reference white ≈ 1.0 and highlights > 1)
///     format   gbrpf32le (linear float RGB)
///     zscale   primaries → BT.709
///     tonemap  mobius, desat=0: linear below ~0.3 of the range, highlights rolled off, so
///              diffuse whites and skin stay where SDR puts them and colours keep saturation
///     zscale   transfer, matrix → BT.709, full range
///     format   rgb24
///
/// Resizing happens in the first step, so a 4K frame is tone-mapped at poster size. Runs only
/// for frames `HDRToneMapper` has no table path for (other primaries or transfers), and in tests
/// as the reference the table path is compared with. Costs one graph set-up plus three float
/// passes at poster size, with short-lived float buffers several times the poster's size,
/// plus opening libavfilter (and its ~30 libraries) the first time, through CLibavLoader like
/// the rest of libav; runs that never reach here never load it. The graph is single-threaded
/// and freed before returning.
package enum HDRFilterGraphToneMapper {
    static func toneMap(_ frame: LibavFrame, width: Int, height: Int) throws(LibavFailure) -> [UInt8] {
        let source = frame.pointer.pointee
        guard frame.width > 0, frame.height > 0, source.format >= 0 else { throw LibavFailure("decoded frame has no pixels") }
        let graph = try FilterGraph()
        let aspect = source.sample_aspect_ratio.num > 0 && source.sample_aspect_ratio.den > 0
            ? "\(source.sample_aspect_ratio.num)/\(source.sample_aspect_ratio.den)" : "1/1"
        let input = try graph.add("buffer", name: "in",
                                  arguments: "video_size=\(frame.width)x\(frame.height):pix_fmt=\(source.format):time_base=1/1:pixel_aspect=\(aspect)")
        let output = try graph.add("buffersink", name: "out", arguments: nil)
        let description = [
            "zscale=w=\(width):h=\(height):filter=bicubic:tin=\(transfer(source.color_trc)):pin=\(primaries(source.color_primaries))"
                + ":min=\(matrix(source.colorspace, primaries: source.color_primaries)):rin=\(range(source.color_range, format: source.format))"
                + ":t=linear:npl=100",
            "format=gbrpf32le",
            "zscale=p=bt709",
            "tonemap=tonemap=mobius:desat=0",
            "zscale=t=bt709:m=bt709:r=full",
            "format=rgb24",
        ].joined(separator: ",")
        try graph.link(input: input, output: output, description: description)

        let sent = av_buffersrc_add_frame_flags(input, frame.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard sent >= 0 else { throw LibavFailure("tone-map input", code: sent) }
        let result = try LibavFrame()
        var received = av_buffersink_get_frame(output, result.pointer)
        if received == LibavRuntime.tryAgain {
            _ = av_buffersrc_add_frame_flags(input, nil, 0)   // end of stream: flush the graph
            received = av_buffersink_get_frame(output, result.pointer)
        }
        guard received >= 0 else { throw LibavFailure("tone-map output", code: received) }
        guard result.width == width, result.height == height,
              result.pointer.pointee.format == AV_PIX_FMT_RGB24.rawValue else {
            throw LibavFailure("tone-map produced \(result.width)×\(result.height) in format \(result.pointer.pointee.format)")
        }
        return try result.packedRGB()
    }

    // zscale's names for the frame's colour signalling. Unspecified values get the defaults of
    // the formats that reach here (BT.2020 non-constant-luminance, limited range).
    package static func transfer(_ t: AVColorTransferCharacteristic) -> String {
        switch t {
        case AVCOL_TRC_ARIB_STD_B67: "arib-std-b67"
        case AVCOL_TRC_SMPTE2084: "smpte2084"
        case AVCOL_TRC_BT2020_10: "2020_10"
        case AVCOL_TRC_BT2020_12: "2020_12"
        case AVCOL_TRC_IEC61966_2_1: "iec61966-2-1"
        case AVCOL_TRC_LINEAR: "linear"
        default: "bt709"
        }
    }

    package static func primaries(_ p: AVColorPrimaries) -> String {
        switch p {
        case AVCOL_PRI_BT2020: "bt2020"
        case AVCOL_PRI_SMPTE432: "smpte432"
        case AVCOL_PRI_SMPTE431: "smpte431"
        case AVCOL_PRI_BT470BG: "bt470bg"
        case AVCOL_PRI_SMPTE170M: "smpte170m"
        case AVCOL_PRI_BT709: "bt709"
        default: "bt2020"
        }
    }

    package static func matrix(_ m: AVColorSpace, primaries p: AVColorPrimaries) -> String {
        switch m {
        case AVCOL_SPC_BT2020_NCL: "2020_ncl"
        case AVCOL_SPC_BT2020_CL: "2020_cl"
        case AVCOL_SPC_BT709: "709"
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: "170m"
        case AVCOL_SPC_RGB: "gbr"
        default: p == AVCOL_PRI_BT709 ? "709" : "2020_ncl"
        }
    }

    static func range(_ r: AVColorRange, format: Int32) -> String {
        r == AVCOL_RANGE_JPEG || SDRFrameConverter.isJPEGRange(AVPixelFormat(rawValue: format)) ? "full" : "limited"
    }
}

/// Owns an `AVFilterGraph` (freed with its filters in `deinit`), single-threaded. Making one
/// loads libavfilter on first use (`LibavRuntime.configure(.filter)`), or throws a
/// `LibavFailure` naming it and the dynamic linker's reason when it cannot be loaded.
package final class FilterGraph {
    let graph: UnsafeMutablePointer<AVFilterGraph>

    package init() throws(LibavFailure) {
        try LibavRuntime.configure(.filter)
        guard let graph = avfilter_graph_alloc() else { throw LibavFailure("out of memory") }
        graph.pointee.nb_threads = 1
        self.graph = graph
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVFilterGraph>? = graph
        avfilter_graph_free(&freeing)
    }

    /// Creates filter `filter` named `name` in the graph.
    func add(_ filter: String, name: String, arguments: String?) throws(LibavFailure) -> UnsafeMutablePointer<AVFilterContext> {
        guard let definition = avfilter_get_by_name(filter) else { throw LibavFailure("libavfilter has no \(filter) filter") }
        var created: UnsafeMutablePointer<AVFilterContext>?
        let status = avfilter_graph_create_filter(&created, definition, name, arguments, nil, graph)
        guard status >= 0, let created else { throw LibavFailure("filter \(filter)", code: status) }
        return created
    }

    /// Parses `description` between `input` (a buffer source) and `output` (a buffer sink)
    /// and configures the graph.
    func link(input: UnsafeMutablePointer<AVFilterContext>, output: UnsafeMutablePointer<AVFilterContext>,
              description: String) throws(LibavFailure) {
        var inputs = avfilter_inout_alloc()
        var outputs = avfilter_inout_alloc()
        // avfilter_graph_parse_ptr consumes both lists and leaves in them what it could not
        // link; whatever they hold afterwards (or on an early exit) is freed here.
        defer {
            avfilter_inout_free(&inputs)
            avfilter_inout_free(&outputs)
        }
        guard let sinkEnd = inputs, let sourceEnd = outputs else { throw LibavFailure("out of memory") }
        sourceEnd.pointee.name = av_strdup("in")
        sourceEnd.pointee.filter_ctx = input
        sourceEnd.pointee.pad_idx = 0
        sourceEnd.pointee.next = nil
        sinkEnd.pointee.name = av_strdup("out")
        sinkEnd.pointee.filter_ctx = output
        sinkEnd.pointee.pad_idx = 0
        sinkEnd.pointee.next = nil
        let parsed = avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil)
        guard parsed >= 0 else { throw LibavFailure("filter graph '\(description)'", code: parsed) }
        let configured = avfilter_graph_config(graph, nil)
        guard configured >= 0 else { throw LibavFailure("filter graph set-up", code: configured) }
    }
}
