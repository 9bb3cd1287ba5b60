import CFFmpeg
import Glibc
import JournalMediaCore

/// libavfilter, opened with `dlopen` the first time a filter graph is needed instead of being
/// linked into the process.
///
/// Why: Debian's libavfilter pulls in about 30 libraries nothing else uses (flite voices,
/// pocketsphinx, LAPACK, Vulkan, libplacebo, …). Linked, they would cost every run their
/// dynamic linking at start-up (Benchmarks/RESULTS.md), and the only user is the rare HDR
/// poster whose signalling the table tone curve does not cover (`HDRFilterGraphToneMapper`).
///
/// Runs once per process, on the first such frame: one `dlopen` and ten `dlsym`s.
/// The library stays loaded. `shared` is nil when libavfilter cannot be opened or lacks a
/// symbol; callers turn that into a typed failure.
package struct LibavFilterLibrary: Sendable {
    typealias GraphAlloc = @convention(c) () -> UnsafeMutablePointer<AVFilterGraph>?
    typealias GraphFree = @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterGraph>?>?) -> Void
    typealias GetByName = @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    typealias CreateFilter = @convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<AVFilterContext>?>?, UnsafePointer<AVFilter>?,
        UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<AVFilterGraph>?
    ) -> Int32
    typealias InOutAlloc = @convention(c) () -> UnsafeMutablePointer<AVFilterInOut>?
    typealias InOutFree = @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?) -> Void
    typealias GraphParse = @convention(c) (
        UnsafeMutablePointer<AVFilterGraph>?, UnsafePointer<CChar>?,
        UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?, UnsafeMutableRawPointer?
    ) -> Int32
    typealias GraphConfig = @convention(c) (UnsafeMutablePointer<AVFilterGraph>?, UnsafeMutableRawPointer?) -> Int32
    typealias AddFrame = @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?, Int32) -> Int32
    typealias GetFrame = @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32

    let graphAlloc: GraphAlloc
    let graphFree: GraphFree
    let getByName: GetByName
    let createFilter: CreateFilter
    let inOutAlloc: InOutAlloc
    let inOutFree: InOutFree
    let graphParse: GraphParse
    let graphConfig: GraphConfig
    let bufferSourceAddFrame: AddFrame
    let bufferSinkGetFrame: GetFrame

    /// The soname of the libavfilter whose headers this was compiled against (`libavfilter.so.8`
    /// for ffmpeg 5.1), so the structures the graph code touches have the layout it expects.
    static let soname = "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"

    /// The process's libavfilter, opened on first use; nil when it cannot be.
    static let shared: LibavFilterLibrary? = LibavFilterLibrary(soname: soname)

    /// The library, or a failure saying why the filter graph is unavailable.
    static func load() throws(LibavFailure) -> LibavFilterLibrary {
        guard let shared else { throw LibavFailure("\(soname) could not be loaded") }
        return shared
    }

    private init?(soname: String) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<F>(_ name: String, as type: F.Type) -> F? {
            guard let address = dlsym(handle, name) else { return nil }
            return unsafeBitCast(address, to: type)
        }
        guard let graphAlloc = symbol("avfilter_graph_alloc", as: GraphAlloc.self),
              let graphFree = symbol("avfilter_graph_free", as: GraphFree.self),
              let getByName = symbol("avfilter_get_by_name", as: GetByName.self),
              let createFilter = symbol("avfilter_graph_create_filter", as: CreateFilter.self),
              let inOutAlloc = symbol("avfilter_inout_alloc", as: InOutAlloc.self),
              let inOutFree = symbol("avfilter_inout_free", as: InOutFree.self),
              let graphParse = symbol("avfilter_graph_parse_ptr", as: GraphParse.self),
              let graphConfig = symbol("avfilter_graph_config", as: GraphConfig.self),
              let bufferSourceAddFrame = symbol("av_buffersrc_add_frame_flags", as: AddFrame.self),
              let bufferSinkGetFrame = symbol("av_buffersink_get_frame", as: GetFrame.self) else {
            // Nothing from the library is in use yet, so it can go again.
            dlclose(handle)
            return nil
        }
        self.graphAlloc = graphAlloc
        self.graphFree = graphFree
        self.getByName = getByName
        self.createFilter = createFilter
        self.inOutAlloc = inOutAlloc
        self.inOutFree = inOutFree
        self.graphParse = graphParse
        self.graphConfig = graphConfig
        self.bufferSourceAddFrame = bufferSourceAddFrame
        self.bufferSinkGetFrame = bufferSinkGetFrame
    }
}
