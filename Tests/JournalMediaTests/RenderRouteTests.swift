import Foundation
import Hummingbird
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// `GET /v1/render/…` (issue 31): signatures (good, bad, rotated keys, unsigned), the storage
/// root's walls, `format: auto` by `Accept`, `ETag`/304 and `Cache-Control`, and URL sources
/// under the SSRF rules against a source server on 127.0.0.1. Loopback only; every loop bounded.
@Suite(.serialized) struct RenderRouteTests {
    static let keyA = RenderConfiguration.SigningKey(key: Array("key-A-0123456789abcdef".utf8), salt: Array("salt-A".utf8))
    static let keyB = RenderConfiguration.SigningKey(key: Array("key-B-0123456789abcdef".utf8), salt: Array("salt-B".utf8))
    static let keyC = RenderConfiguration.SigningKey(key: Array("key-C-0123456789abcdef".utf8), salt: Array("salt-C".utf8))

    /// A storage root holding `photo.jpg` and `alpha.png`, and a file outside it.
    static func storage() throws -> (root: URL, outside: URL) {
        let base = try TestSupport.temporaryFolder("render")
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("album"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.sample("orientation-8-srgb.jpg"),
                                         to: root.appendingPathComponent("album/photo.jpg"))
        try FileManager.default.copyItem(at: TestSupport.sample("alpha-disc.png"), to: root.appendingPathComponent("alpha.png"))
        let outside = base.appendingPathComponent("secret.jpg")
        try FileManager.default.copyItem(at: TestSupport.sample("orientation-8-srgb.jpg"), to: outside)
        return (root, outside)
    }

    static func configuration(root: URL?) throws -> ServeConfiguration {
        var configuration = ServeConfiguration()
        let json = """
            {"render": {"keys": [{"key": "\(hex(keyA.key))", "salt": "\(hex(keyA.salt))"},
                                 {"key": "\(hex(keyB.key))", "salt": "\(hex(keyB.salt))"}]\(root.map { ", \"storageRoot\": \"\($0.path)\"" } ?? "")},
             "presets": {"thumb": {"renditions": [{"role": "thumb", "format": "webp", "width": 64}],
                                   "cacheControl": "public, max-age=600"},
                         "auto": {"renditions": [{"role": "small", "format": "auto", "width": 48}]}}}
            """
        let file = try TestSupport.temporaryFolder("renderconfig").appendingPathComponent("serve.json")
        try Data(json.utf8).write(to: file)
        try configuration.apply(configFile: file)
        return configuration
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// `/v1/render/SIG/PATH` signed with `key` (nil: `unsafe`).
    static func url(_ base: URL, _ path: String, key: RenderConfiguration.SigningKey?) -> URL {
        let signature = key.map { URLSignature.sign(path, with: $0) } ?? "unsafe"
        return URL(string: "\(base)/v1/render/\(signature)\(path)")!
    }

    static func encoded(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    static func get(_ url: URL, headers: [String: String] = [:]) async throws -> ServerTests.Reply {
        try await ServerTests.request(url, headers: headers)
    }

    @Test func hmacMatchesRFC4231() {
        // RFC 4231 test case 2.
        let mac = URLSignature.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Self.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block.
        let long = URLSignature.hmacSHA256(key: [UInt8](repeating: 0xaa, count: 131),
                                           message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(Self.hex(long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // docs/on-demand.md's recipe (Python's hmac, and openssl dgst -mac HMAC | basenc --base64url) gives:
        #expect(URLSignature.sign("/thumb/file/album/photo.jpg", with: Self.keyA) == "yMJMpWqy_cwZV2TGegzxl2a9RvHpme307BC3-yrL14Y")
    }

    @Test func signaturesGoodBadRotatedAndUnsigned() async throws {
        let (root, _) = try Self.storage()
        var configuration = try Self.configuration(root: root)
        configuration.token = "bearer-for-uploads"
        try await ServerTests.withServer(configuration) { base, _ in
            let path = "/thumb/file/album/photo.jpg"
            let good = try await Self.get(Self.url(base, path, key: Self.keyA))
            #expect(good.status == 200, "signed with the first key, no bearer token needed")
            #expect(good.headers["content-type"] == "image/webp")
            #expect(Array(good.body.prefix(4)) == Array("RIFF".utf8) && Array(good.body[8..<12]) == Array("WEBP".utf8))
            let rotated = try await Self.get(Self.url(base, path, key: Self.keyB))
            #expect(rotated.status == 200, "signed with the second (rotated-in) key")
            #expect(rotated.body == good.body)
            let unknownKey = try await Self.get(Self.url(base, path, key: Self.keyC))
            #expect(unknownKey.status == 403)
            #expect(unknownKey.headers["content-type"] == "application/problem+json")
            #expect(unknownKey.json["reason"] as? String == "badSignature")
            #expect(unknownKey.headers["cache-control"] == "no-store")
            // A signature for another path, a truncated one, garbage and unsigned.
            let otherSignature = URLSignature.sign("/thumb/file/alpha.png", with: Self.keyA)
            let swapped = try await Self.get(URL(string: "\(base)/v1/render/\(otherSignature)\(path)")!)
            #expect(swapped.status == 403)
            let truncated = try await Self.get(URL(string: "\(base)/v1/render/\(URLSignature.sign(path, with: Self.keyA).dropLast())\(path)")!)
            #expect(truncated.status == 403)
            #expect(try await Self.get(URL(string: "\(base)/v1/render/not-base64!\(path)")!).status == 403)
            #expect(try await Self.get(Self.url(base, path, key: nil)).status == 403, "unsigned URLs are off by default")
        }
        configuration.render.allowUnsigned = true
        try await ServerTests.withServer(configuration) { base, _ in
            let unsigned = try await Self.get(Self.url(base, "/thumb/file/album/photo.jpg", key: nil))
            #expect(unsigned.status == 200, "unsigned URLs when enabled")
        }
    }

    @Test func nothingOutsideTheStorageRootIsServed() async throws {
        let (root, outside) = try Self.storage()
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("leak.jpg"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("leakdir"),
                                                   withDestinationURL: outside.deletingLastPathComponent())
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("inside.jpg"),
                                                   withDestinationURL: root.appendingPathComponent("album/photo.jpg"))
        let configuration = try Self.configuration(root: root)
        try await ServerTests.withServer(configuration) { base, _ in
            let inside = try await Self.get(Self.url(base, "/thumb/file/inside.jpg", key: Self.keyA))
            #expect(inside.status == 200, "a symlink that stays inside the root is followed")
            for path in ["/thumb/file/leak.jpg", "/thumb/file/leakdir/secret.jpg", "/thumb/file/album/missing.jpg",
                         "/thumb/file/album", "/thumb/enc/" + Self.encoded("local:///../secret.jpg"),
                         "/thumb/enc/" + Self.encoded("local:///album/../../secret.jpg"),
                         "/thumb/enc/" + Self.encoded("local:///" + outside.path),
                         "/thumb/enc/" + Self.encoded("local:///album/photo.jpg\u{0}.png")] {
                let reply = try await Self.get(Self.url(base, path, key: Self.keyA))
                #expect(reply.status == 404, "\(path)")
                #expect(reply.headers["content-type"] == "application/problem+json")
            }
            let encodedInside = try await Self.get(Self.url(base, "/thumb/enc/" + Self.encoded("local:///album/photo.jpg"),
                                                            key: Self.keyA))
            #expect(encodedInside.status == 200)
            // A literal `..` segment never reaches the route: the server's path rule answers 400.
            let dotDot = try await Self.get(URL(string: "\(base)/v1/render/x/thumb/file/../secret.jpg")!)
            #expect(dotDot.status == 400 || dotDot.status == 404)
        }
        // The root's walls hold without the HTTP layer too.
        let storage = StorageRoot(root: root)
        for path in ["../secret.jpg", "/etc/passwd", "leak.jpg", "album/../../secret.jpg", "", "album//photo.jpg"] {
            #expect(throws: StorageRoot.Refusal.notFound, "\(path)") { try storage.open(path, maxBytes: 1 << 30) }
        }
        #expect(throws: StorageRoot.Refusal.tooLarge(33038)) { try storage.open("album/photo.jpg", maxBytes: 1000) }
    }

    @Test func acceptChoosesAVIFWebPOrJPEGAndVaries() async throws {
        let (root, _) = try Self.storage()
        let configuration = try Self.configuration(root: root)
        try await ServerTests.withServer(configuration) { base, _ in
            let url = Self.url(base, "/auto/file/album/photo.jpg", key: Self.keyA)
            let cases: [(String?, String)] = [
                ("image/avif,image/webp,image/apng,image/*,*/*;q=0.8", "image/avif"),
                ("image/webp,*/*", "image/webp"),
                ("image/avif;q=0.5, image/webp", "image/webp"),
                ("image/avif;q=0, image/webp;q=0", "image/jpeg"),
                ("image/*,*/*;q=0.8", "image/jpeg"),
                (nil, "image/jpeg"),
            ]
            var tags = Set<String>()
            for (accept, expected) in cases {
                let reply = try await Self.get(url, headers: accept.map { ["Accept": $0] } ?? [:])
                #expect(reply.status == 200)
                #expect(reply.headers["content-type"] == expected, "Accept: \(accept ?? "none")")
                #expect(reply.headers["vary"] == "Accept")
                tags.insert(reply.headers["etag"] ?? "")
                let magic = Array(reply.body.prefix(12))
                switch expected {
                case "image/avif": #expect(magic.count == 12 && Array(magic[4..<8]) == Array("ftyp".utf8))
                case "image/webp": #expect(magic.count == 12 && Array(magic[8..<12]) == Array("WEBP".utf8))
                default: #expect(Array(magic.prefix(2)) == [0xFF, 0xD8])
                }
            }
            #expect(tags.count == 3, "one entity tag per representation")
            // A transparent source asked as JPEG comes as PNG (the spec's formatWhenTransparent).
            let alpha = try await Self.get(Self.url(base, "/auto/file/alpha.png", key: Self.keyA), headers: ["Accept": "*/*"])
            #expect(alpha.headers["content-type"] == "image/png")
            // A fixed-format preset ignores Accept and does not vary.
            let fixed = try await Self.get(Self.url(base, "/thumb/file/album/photo.jpg", key: Self.keyA),
                                           headers: ["Accept": "image/avif"])
            #expect(fixed.headers["content-type"] == "image/webp" && fixed.headers["vary"] == nil)
        }
    }

    @Test func entityTagsAnswer304AndCacheControlFollowsThePreset() async throws {
        let (root, _) = try Self.storage()
        let configuration = try Self.configuration(root: root)
        try await ServerTests.withServer(configuration) { base, _ in
            let url = Self.url(base, "/thumb/file/album/photo.jpg", key: Self.keyA)
            let first = try await Self.get(url)
            let tag = try #require(first.headers["etag"])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
            #expect(first.headers["cache-control"] == "public, max-age=600")
            let digest = ContentDigest.sha256(Array(try Data(contentsOf: root.appendingPathComponent("album/photo.jpg"))))
            #expect(tag.contains(digest.prefix(32)), "the tag names the source's SHA-256")
            let again = try await Self.get(url, headers: ["If-None-Match": "\"other\", W/\(tag)"])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.headers["etag"] == tag && again.headers["cache-control"] == "public, max-age=600")
            let changed = try await Self.get(url, headers: ["If-None-Match": "\"other\""])
            #expect(changed.status == 200 && changed.body == first.body)
            // Another preset over the same source: another tag; the default Cache-Control.
            let other = try await Self.get(Self.url(base, "/default.fallback/file/album/photo.jpg", key: Self.keyA))
            #expect(other.status == 200 && other.headers["content-type"] == "image/jpeg")
            #expect(other.headers["etag"] != tag)
            #expect(other.headers["cache-control"] == RenderConfiguration().defaultCacheControl)
            // Unknown presets and roles are 404; bad input is the uploads' 422; too large 413.
            #expect(try await Self.get(Self.url(base, "/nope/file/album/photo.jpg", key: Self.keyA)).status == 404)
            #expect(try await Self.get(Self.url(base, "/thumb.nope/file/album/photo.jpg", key: Self.keyA)).status == 404)
        }
        try FileManager.default.copyItem(at: TestSupport.sample("not-an-image.jpg"), to: root.appendingPathComponent("junk.jpg"))
        var small = configuration
        small.maxBodyBytes = 30_000
        try await ServerTests.withServer(small) { base, _ in
            let junk = try await Self.get(Self.url(base, "/thumb/file/junk.jpg", key: Self.keyA))
            #expect(junk.status == 422 && junk.json["reason"] as? String == "unsupportedFormat")
            let large = try await Self.get(Self.url(base, "/thumb/file/album/photo.jpg", key: Self.keyA))
            #expect(large.status == 413 && large.json["reason"] as? String == "overByteLimit")
        }
    }

    /// A stored file's digest is remembered by its `fstat` identity, so a revalidation reads
    /// none of it; a file rewritten in place (same size, its modification time set back) is
    /// a new version all the same: a new `ETag` and the new picture, never the cached digest.
    @Test func aFileRewrittenInPlaceGetsANewEntityTag() async throws {
        let (root, _) = try Self.storage()
        let file = root.appendingPathComponent("album/photo.jpg")
        let configuration = try Self.configuration(root: root)
        // Another picture the same size as photo.jpg (bytes after a JPEG's end are ignored).
        let original = Array(try Data(contentsOf: file))
        var other = Array(try Data(contentsOf: TestSupport.sample("jpeg-decode/odd-size.jpg")))
        try #require(other.count <= original.count)
        other += [UInt8](repeating: 0, count: original.count - other.count)
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        try await ServerTests.withServer(configuration) { base, _ in
            let url = Self.url(base, "/thumb/file/album/photo.jpg", key: Self.keyA)
            let first = try await Self.get(url)
            let tag = try #require(first.headers["etag"])
            #expect(try await Self.get(url, headers: ["If-None-Match": tag]).status == 304)
            // Rewritten through the same inode, same size, the old modification time put back.
            let handle = try FileHandle(forWritingTo: file)
            try handle.write(contentsOf: Data(other))
            try handle.close()
            try FileManager.default.setAttributes([.modificationDate: try #require(before)], ofItemAtPath: file.path)
            let second = try await Self.get(url, headers: ["If-None-Match": tag])
            #expect(second.status == 200, "a stale digest would have answered 304")
            #expect(second.headers["etag"] != tag && second.body != first.body)
            #expect(second.headers["etag"]?.contains(ContentDigest.sha256(other).prefix(32)) == true)
        }
    }

    @Test func digestCacheKeysOnTheFilesVersionAndStaysBounded() {
        let cache = SourceDigestCache(capacity: 2)
        let key = SourceDigestCache.Key(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4, changedNanoseconds: 5)
        cache.record("aa", for: key)
        #expect(cache.digest(for: key) == "aa")
        var changed = key
        changed.changedNanoseconds += 1
        #expect(cache.digest(for: changed) == nil)
        cache.record("bb", for: changed)
        var third = key
        third.inode = 9
        cache.record("cc", for: third)
        #expect(cache.count <= 2 && cache.digest(for: third) == "cc")
    }

    /// `serve`'s default body budget is 1/64 of the memory the process may use: the cgroup's
    /// limit when it is below the machine's (a container), v2 or v1, the tightest ancestor.
    @Test func bodyBudgetFollowsTheCgroupMemoryLimit() throws {
        let root = try TestSupport.temporaryFolder("cgroup")
        func write(_ text: String, _ path: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let gib: UInt64 = 1 << 30
        // cgroup v2: the group's own limit is "max", its parent's 2 GiB.
        try write("max\n", "v2/kubepods/pod1/memory.max")
        try write("2147483648\n", "v2/kubepods/memory.max")
        #expect(HostMemory.available(physical: 64 * gib, cgroupRoot: root.path + "/v2", selfCgroup: "0::/kubepods/pod1\n")
                == 2 * gib)
        // cgroup v1 (as on this machine's kind of host): memory.limit_in_bytes; "unlimited" is a huge number.
        try write("9223372036854771712\n", "v1/memory/memory.limit_in_bytes")
        try write("536870912\n", "v1/memory/docker/abc/memory.limit_in_bytes")
        let v1 = "12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n"
        #expect(HostMemory.available(physical: 64 * gib, cgroupRoot: root.path + "/v1", selfCgroup: v1) == gib / 2)
        #expect(HostMemory.available(physical: 64 * gib, cgroupRoot: root.path + "/v1", selfCgroup: "4:memory:/\n") == 64 * gib)
        // A limit above the machine's memory, or none, leaves the machine's.
        #expect(HostMemory.available(physical: gib / 4, cgroupRoot: root.path + "/v2", selfCgroup: "0::/kubepods/pod1") == gib / 4)
        #expect(HostMemory.available(physical: gib, cgroupRoot: root.path + "/none", selfCgroup: "") == gib)
        var configuration = ServeConfiguration()
        configuration.maxBodyBytes = 1 << 20
        #expect(configuration.defaultBodyBudgetBytes(memory: 2 * gib) == 32 << 20)
        #expect(configuration.defaultBodyBudgetBytes(memory: 32 << 20) == 1 << 20, "at least one largest body")
    }

    // MARK: URL sources

    /// A source server on 127.0.0.1: `/photo.jpg`, `/to/PATH` (302 to PATH), `/to-metadata`
    /// (302 to 169.254.169.254), `/loop` (302 to itself), `/missing` (404).
    static func withSourceServer(_ body: (Int) async throws -> Void) async throws {
        let photo = try Data(contentsOf: TestSupport.sample("orientation-8-srgb.jpg"))
        let router = Router()
        router.get("/photo.jpg") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: photo)))
        }
        router.get("/to/{name}") { _, context in
            Response(status: .found, headers: [.location: "/\(context.parameters.get("name") ?? "")"])
        }
        router.get("/to-metadata") { _, _ in Response(status: .found, headers: [.location: "http://169.254.169.254/latest"]) }
        router.get("/loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let running = Task { try await app.runService() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            Issue.record("the source server did not start")
            return
        }
        try await body(port)
    }

    @Test func urlSourcesFollowTheSSRFRules() async throws {
        try await Self.withSourceServer { port in
            var configuration = try Self.configuration(root: nil)
            configuration.render.allowHTTP = true
            configuration.render.allowedHosts = ["127.0.0.1"]
            func enc(_ text: String) -> String { "/thumb/enc/" + Self.encoded(text) }
            try await ServerTests.withServer(configuration) { base, _ in
                let fetched = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/photo.jpg"), key: Self.keyA))
                #expect(fetched.status == 200, "allow-listed by name: fetched")
                #expect(fetched.headers["content-type"] == "image/webp")
                let redirected = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/to/photo.jpg"), key: Self.keyA))
                #expect(redirected.status == 200, "a redirect to an allowed address is followed")
                #expect(redirected.headers["etag"] == fetched.headers["etag"])
                let metadata = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/to-metadata"), key: Self.keyA))
                #expect(metadata.status == 403, "a redirect is checked again")
                #expect(metadata.json["reason"] as? String == "sourceNotAllowed")
                let loop = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/loop"), key: Self.keyA))
                #expect(loop.status == 502 && (loop.json["detail"] as? String)?.contains("redirects") == true)
                let missing = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/missing"), key: Self.keyA))
                #expect(missing.status == 404)
                let localhost = try await Self.get(Self.url(base, enc("http://localhost:\(port)/photo.jpg"), key: Self.keyA))
                #expect(localhost.status == 403, "localhost is not on the list")
                let https = try await Self.get(Self.url(base, enc("ftp://127.0.0.1:\(port)/photo.jpg"), key: Self.keyA))
                #expect(https.status == 404, "only http(s) and local sources exist")
            }
            // Allowed by pattern only: the loopback address is refused.
            configuration.render.allowedHosts = ["*", "*.example.org"]
            try await ServerTests.withServer(configuration) { base, _ in
                for host in ["127.0.0.1", "localhost", "[::1]", "169.254.169.254", "10.1.2.3", "[::ffff:127.0.0.1]"] {
                    let reply = try await Self.get(Self.url(base, enc("http://\(host):\(port)/photo.jpg"), key: Self.keyA))
                    #expect(reply.status == 403, "\(host)")
                    #expect(reply.json["reason"] as? String == "sourceNotAllowed")
                }
            }
            // Not on the list at all, and http when only https is enabled.
            configuration.render.allowedHosts = ["images.example.org"]
            try await ServerTests.withServer(configuration) { base, _ in
                let reply = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/photo.jpg"), key: Self.keyA))
                #expect(reply.status == 403)
            }
            configuration.render.allowedHosts = ["127.0.0.1"]
            configuration.render.allowHTTP = false
            configuration.maxBodyBytes = 1 << 20
            try await ServerTests.withServer(configuration) { base, _ in
                let reply = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/photo.jpg"), key: Self.keyA))
                #expect(reply.status == 403 && (reply.json["detail"] as? String)?.contains("scheme") == true)
            }
            // The byte limit holds for fetched sources.
            configuration.render.allowHTTP = true
            configuration.maxBodyBytes = 10_000
            try await ServerTests.withServer(configuration) { base, _ in
                let reply = try await Self.get(Self.url(base, enc("http://127.0.0.1:\(port)/photo.jpg"), key: Self.keyA))
                #expect(reply.status == 413)
            }
        }
    }

    @Test func nonPublicAddressesAreRecognised() {
        func v4(_ text: String) -> [UInt8] { text.split(separator: ".").compactMap { UInt8($0) } }
        func v6(_ text: String) -> [UInt8] {
            var address = in6_addr()
            _ = inet_pton(AF_INET6, text, &address)
            return withUnsafeBytes(of: address) { Array($0) }
        }
        for text in ["127.0.0.1", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                     "100.64.0.1", "0.0.0.0", "224.0.0.1", "239.255.255.250", "255.255.255.255", "198.18.0.1", "192.0.2.1"] {
            #expect(!SourceAddressPolicy.isPublic(v4(text)), "\(text)")
        }
        for text in ["8.8.8.8", "1.1.1.1", "172.32.0.1", "93.184.216.34"] {
            #expect(SourceAddressPolicy.isPublic(v4(text)), "\(text)")
        }
        for text in ["::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
                     "64:ff9b::a00:1", "2002:7f00:1::1", "2002:a9fe:a9fe::", "2001:db8::1", "fec0::1"] {
            #expect(!SourceAddressPolicy.isPublic(v6(text)), "\(text)")
        }
        for text in ["2606:4700:4700::1111", "2a00:1450:4001:800::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"] {
            #expect(SourceAddressPolicy.isPublic(v6(text)), "\(text)")
        }
        let policy = SourceAddressPolicy(allowedHosts: ["img.example.org", "*.cdn.example.net"], allowHTTP: false)
        let exact = policy.listing(of: "IMG.example.org"), pattern = policy.listing(of: "a.cdn.example.net")
        #expect(exact.allowed && exact.byName)
        #expect(pattern.allowed && !pattern.byName)
        #expect(!policy.listing(of: "cdn.example.net").allowed)
        #expect(!policy.listing(of: "evil-cdn.example.net").allowed)
    }

    @Test func renderSettingsAreStrict() throws {
        let configuration = try Self.configuration(root: nil)
        #expect(configuration.render.keys == [Self.keyA, Self.keyB])
        #expect(configuration.render.autoFormatRoles["auto"] == ["small"])
        #expect(configuration.presets["auto"]?.first?.format == .jpeg, "uploads make an auto role as JPEG")
        #expect(configuration.render.cacheControl(ofPreset: "thumb") == "public, max-age=600")
        for bad in [#"{"render": {"keys": [{"key": "abc", "salt": "00"}]}}"#,
                    #"{"render": {"keys": [{"key": "00112233445566778899aabbccddeeff"}]}}"#,
                    #"{"render": {"allowedHosts": ["exa mple.org"]}}"#,
                    #"{"render": {"storageRoot": "relative/path"}}"#,
                    #"{"render": {"maxRedirects": 99}}"#,
                    #"{"render": {"unknown": 1}}"#,
                    #"{"presets": {"p": {"renditions": [{"role": "a", "format": "webp", "width": 8}], "cacheControl": "a\nb"}}}"#] {
            let file = try TestSupport.temporaryFolder("renderbad").appendingPathComponent("serve.json")
            try Data(bad.utf8).write(to: file)
            var configuration = ServeConfiguration()
            #expect(throws: ServeConfiguration.Problem.self, "\(bad)") { try configuration.apply(configFile: file) }
        }
    }
}
