import Foundation
import JournalMediaCore

/// A batch's units while they run: which unit starts next (largest first, `Batch.launchOrder`),
/// the entries so far and where the batch stands. Owned by `Batch.runUnits` on the batch's
/// task; the units themselves run in slots of the executor.
struct BatchRunLoop {
    var plan: BatchPlan
    /// Each unit's input bytes (`Batch.costs`).
    let costs: [Int]
    /// The units' indices in the order they start.
    let order: [Int]
    var progress: BatchProgress
    private var next = 0

    init(_ plan: consuming BatchPlan) {
        costs = Batch.costs(plan.units, probes: plan.probes)
        order = Batch.launchOrder(costs: costs)
        progress = BatchProgress(done: 0, total: plan.units.count, failed: 0, skipped: 0, elapsedSeconds: 0)
        progress.bytesTotal = costs.reduce(0, +)
        self.plan = plan
    }

    /// The next unit to start, with its probes (taken out of the plan) and its earlier entry;
    /// nil when every unit has started.
    mutating func nextWork() -> (index: Int, work: Batch.Work, earlier: ManifestEntry?)? {
        while next < plan.units.count {
            let index = order[next], earlier = plan.entries[index]
            next += 1
            if let work = Batch.Work(unit: plan.units[index], taking: &plan.probes) { return (index, work, earlier) }
        }
        return nil
    }

    /// A finished unit: its entry replaces the earlier one, the progress counts it, a
    /// processed entry goes to the journal, and the caller hears of it through `events`.
    mutating func record(_ outcome: Batch.UnitOutcome, at index: Int, journal: ManifestJournal, events: BatchEvents,
                         start: Date) {
        let entry = outcome.entry
        plan.entries[index] = entry
        progress.done += 1
        progress.bytesDone += costs[index]
        if outcome.skipped {
            progress.skipped += 1
            progress.bytesSkipped += costs[index]
        } else {
            journal.append(entry)
            events.onTimings?(entry.source, outcome.timings)
        }
        if let error = entry.error {
            let named = AssetError(file: entry.source, stage: error.stage, reason: error.reason, message: error.message)
            if outcome.skipped {
                progress.failedEarlier += 1
                events.onEarlierFailure?(named)
            } else {
                progress.failed += 1
                events.onFailure?(named)
            }
        }
        progress.elapsedSeconds = Date().timeIntervalSince(start)
        events.onProgress?(progress)
    }
}

extension Batch {
    /// Runs the units, `jobs` at a time, each in a slot of `executor` under a guard of its own
    /// whose parent is `stop` (`schedule`). A stop request admits no more units; cancelling
    /// the batch's task trips `stop`, so no unit starts and those in flight stop at their next
    /// check. A unit cancelled with the batch is not recorded: its slot keeps what the earlier
    /// manifest said, if anything.
    func runUnits(_ loop: inout BatchRunLoop, on executor: AssetExecutor, journal: ManifestJournal, start: Date,
                  stop: DecodeGuard) async {
        let processor = AssetProcessor(options: options, executor: executor)
        let output = self.output, events = self.events, stopRequest = self.stopRequest
        let reuse = EarlierEntryReuse(verify: verify, retryFailed: retryFailed)
        await withTaskCancellationHandler {
            await withTaskGroup(of: (Int, UnitOutcome).self) { group in
                func launch() {
                    guard stopRequest?.isRequested != true, !stop.isCancelled, let next = loop.nextWork() else { return }
                    group.addTask {
                        (next.index, await Batch.schedule(next.work, earlier: next.earlier, reuse: reuse, processor: processor,
                                                          output: output, on: executor, under: stop))
                    }
                }
                for _ in 0..<jobs { launch() }
                while let (index, outcome) = await group.next() {
                    // The batch was cancelled, not the file's fault.
                    if outcome.entry.error?.reason == .cancelled, stop.isCancelled || Task.isCancelled { continue }
                    loop.record(outcome, at: index, journal: journal, events: events, start: start)
                    launch()
                }
            }
        } onCancel: {
            stop.cancel()
        }
    }
}
