import Foundation
import JournalMediaCore

/// The command line as the kernel passed it. Swift's `CommandLine.arguments` repairs bytes
/// that are not UTF-8 (each becomes U+FFFD), so a file named `bad\xffname.jpg` given as an
/// argument could not be found. Here each argument is read from `CommandLine.unsafeArgv`; one
/// that is not valid UTF-8 is handed to the parser percent-escaped (`FileNameEscaping`) and
/// its bytes are kept, so a command can open the file by its real name
/// (`pathBytes(for:)`) and report it escaped, with `"sourceEncoding":"percent"`.
///
/// Read once at start-up; costs one pass over the arguments.
enum RawArguments {
    /// The arguments after the program name: UTF-8 ones as they are, others escaped.
    static let arguments: [String] = read().map(\.text)

    /// Escaped spelling → the argument's bytes, for the arguments that were not UTF-8.
    private static let escapedBytes: [String: [UInt8]] = Dictionary(
        read().compactMap { $0.bytes.map { bytes in (FileNameEscaping.escaped(bytes), bytes) } },
        uniquingKeysWith: { first, _ in first })

    /// The bytes of an argument that was not valid UTF-8, given its escaped spelling; nil for
    /// every argument that was valid UTF-8 (a name that merely contains `%XX` stays itself).
    static func pathBytes(for argument: String) -> [UInt8]? { escapedBytes[argument] }

    /// Each argument as text, with its bytes when it had to be escaped.
    private static func read() -> [(text: String, bytes: [UInt8]?)] {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return [] }
        return (1..<count).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return ("", nil) }
            let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            let shown = FileNameEscaping.shown(bytes)
            return (shown.text, shown.escaped ? bytes : nil)
        }
    }
}
