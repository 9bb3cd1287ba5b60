import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into calls on a dispatch queue instead of killing the process:
/// the first one calls `onFirst` and then `handler(false)`, any later one `handler(true)`.
/// Installed for the life of the object (the signals' default actions come back when it
/// is released). Costs one dispatch source per signal.
final class InterruptHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var sources: [any DispatchSourceSignal] = []
    private let handler: @Sendable (_ second: Bool) -> Void
    /// Runs once, on the first signal, before `handler`.
    var onFirst: (@Sendable () -> Void)? {
        get { lock.withLock { first } }
        set { lock.withLock { first = newValue } }
    }
    private var first: (@Sendable () -> Void)?

    init(_ handler: @escaping @Sendable (_ second: Bool) -> Void) {
        self.handler = handler
        let queue = DispatchQueue(label: "journal-media.signals")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.received() }
            source.resume()
            sources.append(source)
        }
    }

    private func received() {
        let (again, callback): (Bool, (@Sendable () -> Void)?) = lock.withLock {
            count += 1
            return (count > 1, count == 1 ? first : nil)
        }
        callback?()
        handler(again)
    }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// A count shared with callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// "1 asset", "2 assets".
enum Plural {
    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
