import Foundation

/// Where URL sources may be fetched from (the server's defence against SSRF). A URL passes
/// when its scheme is `https` (or `http` when enabled), its host matches `allowedHosts`
/// (exactly, `*.domain`, or `*`), and every address its host resolves to is public; an
/// address in a loopback, private, carrier-grade NAT, link-local (169.254.0.0/16: cloud
/// metadata), multicast, reserved or documentation range, or the IPv6 equivalents (`::1`,
/// `fc00::/7`, `fe80::/10`, `ff00::/8`, IPv4-mapped, NAT64, 6to4 and Teredo forms of those), is
/// allowed only when the host is listed exactly, by name. The fetch then connects to the
/// address checked here (`SourceFetcher` pins it), so a second DNS answer cannot redirect it.
/// Runs per URL and per redirect; costs one `getaddrinfo` on a blocking thread.
struct SourceAddressPolicy: Sendable {
    let allowedHosts: [String]
    let allowHTTP: Bool

    /// A URL's parts the fetch needs, once allowed.
    struct Target: Sendable, Equatable {
        var url: URL
        var host: String
        /// The address to connect to (numeric).
        var address: String
    }

    enum Refusal: Error, Equatable {
        case scheme(String)
        case hostNotAllowed(String)
        case privateAddress(host: String, address: String)
        case unresolvable(String)
        case malformed(String)

        var detail: String {
            switch self {
            case .scheme(let scheme): "source: the scheme \(scheme) is not accepted"
            case .hostNotAllowed(let host): "source: the host \(host) is not on the allow-list"
            case .privateAddress(let host, let address):
                "source: \(host) resolves to \(address), a non-public address, and is not allow-listed by name"
            case .unresolvable(let host): "source: the host \(host) does not resolve"
            case .malformed(let text): "source: not a usable URL: \(text)"
            }
        }
    }

    /// Whether `pattern` is a valid allow-list entry.
    static func isValidPattern(_ pattern: String) -> Bool {
        if pattern == "*" { return true }
        let name = pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : pattern
        return !name.isEmpty && name.utf8.count <= 253
            && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
    }

    /// How `host` is listed: exactly (by name), by a pattern, or not at all.
    func listing(of host: String) -> (allowed: Bool, byName: Bool) {
        let host = host.lowercased()
        if allowedHosts.contains(host) { return (true, true) }
        let byPattern = allowedHosts.contains { pattern in
            pattern == "*" || (pattern.hasPrefix("*.") && host.hasSuffix(pattern.dropFirst(1)))
        }
        return (byPattern, false)
    }

    /// Checks `text` (scheme, host, every resolved address) and picks the address to use.
    func check(_ text: String) async throws(Refusal) -> Target {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { throw .malformed(text) }
        guard scheme == "https" || (scheme == "http" && allowHTTP) else { throw .scheme(scheme) }
        guard var host = url.host?.lowercased(), !host.isEmpty, url.user == nil, url.password == nil else {
            throw .malformed(text)
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let listing = listing(of: host)
        guard listing.allowed else { throw .hostNotAllowed(host) }
        let name = host
        let addresses = await BlockingWork.run { Self.resolve(name) }
        guard let first = addresses.first else { throw .unresolvable(host) }
        if !listing.byName, let bad = addresses.first(where: { !Self.isPublic($0) }) {
            throw .privateAddress(host: host, address: Self.text(bad))
        }
        return Target(url: url, host: host, address: Self.text(first))
    }

    /// An address: 4 or 16 bytes.
    typealias Address = [UInt8]

    /// The host's addresses (numeric hosts are parsed, not looked up).
    static func resolve(_ host: String) -> [Address] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let list else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let socket = current.pointee.ai_addr {
                if current.pointee.ai_family == AF_INET {
                    socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin_addr) { addresses.append(Array($0)) }
                    }
                } else if current.pointee.ai_family == AF_INET6 {
                    socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin6_addr) { addresses.append(Array($0)) }
                    }
                }
            }
            entry = current.pointee.ai_next
        }
        var seen = Set<Address>()
        return addresses.filter { seen.insert($0).inserted }
    }

    /// Whether an address is public unicast (neither loopback, private, link-local, multicast,
    /// reserved nor documentation; IPv6 forms that embed an IPv4 address are judged by it).
    static func isPublic(_ address: Address) -> Bool {
        if address.count == 4 { return isPublicIPv4(address) }
        guard address.count == 16 else { return false }
        let a = address
        // ::/96 (unspecified, loopback, IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped).
        if a[0..<10].allSatisfy({ $0 == 0 }) {
            if a[10] == 0xff && a[11] == 0xff { return isPublicIPv4(Array(a[12..<16])) }
            return false
        }
        // 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64): the IPv4 address in the last 32 bits.
        if a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b { return isPublicIPv4(Array(a[12..<16])) }
        // 2002::/16 (6to4): the IPv4 address in bits 16–47.
        if a[0] == 0x20 && a[1] == 0x02 { return isPublicIPv4(Array(a[2..<6])) }
        // 2001::/32 (Teredo): the client's IPv4 address, inverted, in the last 32 bits.
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0 && a[3] == 0 {
            return isPublicIPv4(a[12..<16].map { ~$0 })
        }
        if a[0] & 0xfe == 0xfc { return false }                       // fc00::/7 unique local
        if a[0] == 0xfe && a[1] & 0xc0 == 0x80 { return false }       // fe80::/10 link-local
        if a[0] == 0xfe && a[1] & 0xc0 == 0xc0 { return false }       // fec0::/10 site-local
        if a[0] == 0xff { return false }                              // ff00::/8 multicast
        if a[0] == 0x01 && a[1] == 0 && a[2..<8].allSatisfy({ $0 == 0 }) { return false } // 100::/64 discard
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8 { return false }   // 2001:db8::/32 docs
        return a[0] & 0xe0 == 0x20                                    // 2000::/3 global unicast only
    }

    static func isPublicIPv4(_ a: Address) -> Bool {
        guard a.count == 4 else { return false }
        switch (a[0], a[1]) {
        case (0, _), (10, _), (127, _): return false                  // this network, private, loopback
        case (100, 64...127): return false                            // carrier-grade NAT
        case (169, 254): return false                                 // link-local, cloud metadata
        case (172, 16...31): return false                             // private
        case (192, 168): return false                                 // private
        case (198, 18...19): return false                             // benchmarking
        case (224...255, _): return false                             // multicast, reserved, broadcast
        default: break
        }
        if a[0] == 192 && a[1] == 0 && (a[2] == 0 || a[2] == 2) { return false }   // IETF, TEST-NET-1
        if a[0] == 198 && a[1] == 51 && a[2] == 100 { return false }               // TEST-NET-2
        if a[0] == 203 && a[1] == 0 && a[2] == 113 { return false }                // TEST-NET-3
        return true
    }

    /// The numeric form of an address (`127.0.0.1`, `::1`).
    static func text(_ address: Address) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        let ok = address.withUnsafeBytes { bytes in inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count)) != nil }
        return ok ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
}
