import CExif
import Foundation

/// Which libexif the process runs with. libexif has no version call, so this names the
/// shared object the dynamic linker mapped (`libexif.so.12.3.4`: its ABI version), read from
/// /proc/self/maps. For `--version`; costs one read of the maps file.
package enum ExifLibraryVersion {
    package static var loadedObject: String {
        // Touch the library so it is mapped even if nothing has used it yet.
        _ = exif_data_new
        // /proc files report a size of 0: read to the end rather than by size.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return "libexif" }
        let maps = String(decoding: data, as: UTF8.self)
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard path.contains("/libexif.so") else { continue }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().lastPathComponent
            return resolved
        }
        return "libexif"
    }
}
