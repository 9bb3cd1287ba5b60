/// How many threads the work on one asset may run beside its own, asked at the moment it
/// could split (before each row of a grid HEIC's tiles): the scheduler's answer, which may
/// change while the work runs (another asset arrives, the idle core is gone).
///
/// `AssetExecutor.spareCores` makes the one the product uses: its idle slots shared among
/// the assets running, nothing while callers wait. So a lone request on an idle service
/// decodes on two cores, while a batch (whose slots are all busy) stays at one thread per
/// asset. It is handed down as a value (`AssetRequest.spareCores` → `DecodePlan.spareCores`
/// → the decoder), never read from the thread; `none`, the default, is one thread.
/// Costs one call of the closure (a lock round in the executor) per question.
public struct SpareCores: Sendable {
    private let count: @Sendable () -> Int

    /// `count` answers how many more threads may run now (0 or more).
    public init(_ count: @escaping @Sendable () -> Int) {
        self.count = count
    }

    /// No thread beside the caller's.
    public static let none = SpareCores { 0 }

    /// How many more threads the work may run now.
    public var now: Int { max(0, count()) }
}
