import CVips
import JournalMediaCore

/// A value for one argument of a libvips operation.
enum VipsArgument {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    /// An enum or flags argument given by its nickname, e.g. `"attention"` for `crop`.
    case nick(String)
    case image(VipsImageHandle)
    case doubles([Double])
    /// A blob that borrows memory the caller keeps alive until the operation's outputs are gone.
    case borrowedBlob(UnsafeRawBufferPointer)
    /// A source over borrowed bytes (`VipsMemorySource`), for `…load_source` operations.
    case source(VipsMemorySource)
    /// Several images, e.g. the `in` of `bandjoin`.
    case images([VipsImageHandle])
}

/// One call of a libvips operation through its introspection layer (`vips_operation_new`,
/// `g_object_set_property`, `vips_cache_operation_buildp`, `g_object_get_property`): the way
/// a binding calls libvips when the convenience functions are C variadics it cannot call.
///
/// Lifetime: the operation is released in `deinit`; outputs taken from it are new owned
/// references. Cost: building the operation object is a few microseconds; the work itself
/// happens in `build()` for eager operations (savers, statistics) or later, lazily, when
/// pixels of an output image are read.
package final class VipsOperationCall {
    private var operation: UnsafeMutablePointer<VipsOperation>
    let name: String
    private var built = false
    /// Objects the operation's inputs depend on (a `VipsMemorySource`'s owner, a `MemoryFile`):
    /// kept for as long as this call is.
    var retained: [AnyObject] = []

    package init(_ name: String) throws(VipsError) {
        try VipsRuntime.ensure(operation: name)
        guard let operation = vips_operation_new(name) else {
            throw VipsError(message: "libvips has no operation \(name): \(VipsRuntime.failureMessage("vips_operation_new"))")
        }
        self.operation = operation
        self.name = name
    }

    deinit {
        if built { vips_object_unref_outputs(objectPointer) }
        g_object_unref(UnsafeMutableRawPointer(operation))
    }

    private var objectPointer: UnsafeMutablePointer<VipsObject> {
        UnsafeMutableRawPointer(operation).assumingMemoryBound(to: VipsObject.self)
    }

    private var gobjectPointer: UnsafeMutablePointer<GObject> {
        UnsafeMutableRawPointer(operation).assumingMemoryBound(to: GObject.self)
    }

    private func argumentType(_ argument: String) throws(VipsError) -> GType {
        var spec: UnsafeMutablePointer<GParamSpec>?
        var argumentClass: UnsafeMutablePointer<VipsArgumentClass>?
        var instance: UnsafeMutablePointer<VipsArgumentInstance>?
        guard vips_object_get_argument(objectPointer, argument, &spec, &argumentClass, &instance) == 0,
              let spec
        else {
            _ = VipsRuntime.takeErrorBuffer()
            throw VipsError(message: "\(name) has no argument \(argument)")
        }
        return spec.pointee.value_type
    }

    /// Sets one input argument. Throws when the operation has no such argument or the
    /// value does not fit its type.
    @discardableResult
    func set(_ argument: String, _ value: VipsArgument) throws(VipsError) -> VipsOperationCall {
        let type = try argumentType(argument)
        var gvalue = GValue()
        g_value_init(&gvalue, type)
        defer { g_value_unset(&gvalue) }
        let fundamental = g_type_fundamental(type)
        switch value {
        case .int(let number):
            if fundamental == jm_gtype_enum() {
                // An enum argument given by its raw value (e.g. another image's band format).
                g_value_set_enum(&gvalue, Int32(clamping: number))
            } else if fundamental == jm_gtype_double() {
                g_value_set_double(&gvalue, Double(number))
            } else {
                g_value_set_int(&gvalue, Int32(clamping: number))
            }
        case .double(let number):
            g_value_set_double(&gvalue, number)
        case .bool(let flag):
            g_value_set_boolean(&gvalue, flag ? 1 : 0)
        case .string(let text):
            g_value_set_string(&gvalue, text)
        case .nick(let nick):
            if fundamental == jm_gtype_enum() {
                let raw = vips_enum_from_nick("journal-media", type, nick)
                guard raw >= 0 else {
                    _ = VipsRuntime.takeErrorBuffer()
                    throw VipsError(message: "\(name): \(nick) is not a value of \(argument)")
                }
                g_value_set_enum(&gvalue, raw)
            } else if fundamental == jm_gtype_flags() {
                let raw = vips_flags_from_nick("journal-media", type, nick)
                guard raw >= 0 else {
                    _ = VipsRuntime.takeErrorBuffer()
                    throw VipsError(message: "\(name): \(nick) is not a value of \(argument)")
                }
                g_value_set_flags(&gvalue, UInt32(raw))
            } else {
                throw VipsError(message: "\(name): \(argument) is not an enum")
            }
        case .image(let image):
            g_value_set_object(&gvalue, UnsafeMutableRawPointer(image.pointer))
        case .source(let source):
            g_value_set_object(&gvalue, UnsafeMutableRawPointer(source.pointer))
        case .images(let images):
            var pointers: [UnsafeMutablePointer<CVips.VipsImage>?] = images.map(\.pointer)
            guard let array = vips_array_image_new(&pointers, Int32(pointers.count)) else {
                throw VipsError(message: "\(name): could not make an image array")
            }
            g_value_set_boxed(&gvalue, UnsafeRawPointer(array))
            vips_area_unref(UnsafeMutableRawPointer(array).assumingMemoryBound(to: VipsArea.self))
        case .doubles(let numbers):
            numbers.withUnsafeBufferPointer { buffer in
                vips_value_set_array_double(&gvalue, buffer.baseAddress, Int32(buffer.count))
            }
        case .borrowedBlob(let bytes):
            guard let blob = vips_blob_new(nil, bytes.baseAddress, bytes.count) else {
                throw VipsError(message: "\(name): could not wrap the input buffer")
            }
            g_value_set_boxed(&gvalue, UnsafeRawPointer(blob))
            vips_area_unref(UnsafeMutableRawPointer(blob).assumingMemoryBound(to: VipsArea.self))
        }
        g_object_set_property(gobjectPointer, argument, &gvalue)
        return self
    }

    /// Builds (runs) the operation. With the operation cache off this never returns a
    /// shared result.
    func build() throws(VipsError) {
        var current: UnsafeMutablePointer<VipsOperation>? = operation
        VipsRuntime.beginCall()
        guard vips_cache_operation_buildp(&current) == 0, let current else {
            vips_object_unref_outputs(objectPointer)
            throw VipsError(message: VipsRuntime.failureMessage(name))
        }
        operation = current
        built = true
    }

    /// Reads one output argument into a GValue of its declared type and hands it to `read`.
    private func withOutput<T>(_ argument: String, _ read: (UnsafeMutablePointer<GValue>) -> T) throws(VipsError) -> T {
        let type = try argumentType(argument)
        var gvalue = GValue()
        g_value_init(&gvalue, type)
        defer { g_value_unset(&gvalue) }
        g_object_get_property(gobjectPointer, argument, &gvalue)
        return withUnsafeMutablePointer(to: &gvalue) { read($0) }
    }

    /// A new owned reference to an output image.
    func outputImage(_ argument: String = "out") throws(VipsError) -> VipsImageHandle {
        let object = try withOutput(argument) { value -> UnsafeMutableRawPointer? in
            guard let object = g_value_get_object(value) else { return nil }
            g_object_ref(object)
            return object
        }
        guard let object else { throw VipsError(message: "\(name) produced no \(argument)") }
        return VipsImageHandle(owning: object.assumingMemoryBound(to: CVips.VipsImage.self))
    }

    /// A copy of an output blob, e.g. the `buffer` of a `*save_buffer` operation.
    func outputBytes(_ argument: String = "buffer") throws(VipsError) -> [UInt8] {
        let bytes = try withOutput(argument) { value -> [UInt8]? in
            guard let boxed = g_value_get_boxed(value) else { return nil }
            let area = boxed.assumingMemoryBound(to: VipsArea.self)
            guard let data = area.pointee.data else { return [] }
            return Array(UnsafeRawBufferPointer(start: data, count: area.pointee.length))
        }
        guard let bytes else { throw VipsError(message: "\(name) produced no \(argument)") }
        return bytes
    }

    /// An output array of numbers, e.g. the `out_array` of `getpoint`.
    func outputDoubles(_ argument: String) throws(VipsError) -> [Double] {
        try withOutput(argument) { value in
            var count: Int32 = 0
            guard let values = vips_value_get_array_double(value, &count) else { return [] }
            return Array(UnsafeBufferPointer(start: values, count: Int(count)))
        }
    }

    /// An output number, e.g. the `out` of `min`, `max` or `avg`.
    func outputDouble(_ argument: String = "out") throws(VipsError) -> Double {
        try withOutput(argument) { g_value_get_double($0) }
    }
}
