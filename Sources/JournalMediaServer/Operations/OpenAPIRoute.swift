import COpenAPISpec
import Hummingbird

/// `GET /openapi.yaml`: the service's contract, the package's openapi.yaml as it was when the
/// binary was built (embedded by the COpenAPISpec target), so the spec a client reads is the
/// one the running server was built against. Public like the probes (no token). Costs one
/// copy of the spec (tens of KiB) per request.
struct OpenAPIRoute: Sendable {
    static let path = "/openapi.yaml"

    /// The embedded spec's bytes.
    static var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: jm_openapi_yaml_bytes(), count: Int(jm_openapi_yaml_length()))
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(Self.path)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.bytes)))
        }
    }
}
