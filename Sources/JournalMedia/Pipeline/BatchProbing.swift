import Foundation
import JournalMediaCore

extension Batch {
    /// Probes every planned file once, `jobs` at a time, in slots of `executor`: one open, one
    /// sniff, one metadata walk each. The probes keep their descriptors for processing, up to a
    /// budget below the process's descriptor limit; beyond it a probe is closed after its
    /// metadata walk and reopened by path when processed (with a check that it did not change).
    /// A worker the executor refuses (the task was cancelled, a shared executor's queue is
    /// full) probes its share on a thread of its own instead: every file gets its probe.
    static func probe(_ planned: [PlannedAsset], jobs: Int, on given: AssetExecutor? = nil) async -> [ProbedAsset] {
        let executor = given ?? AssetExecutor(maxConcurrentAssets: jobs, label: "batch")
        let budget = DescriptorBudget.available()
        let workers = max(1, min(jobs, planned.count))
        let slots = ProbeSlots(count: planned.count)
        let sidecars = XMPSidecars.listing()
        @Sendable func probeShare(_ worker: Int) {
            for index in stride(from: worker, to: planned.count, by: workers) {
                let probe = ProbedAsset.open(planned[index].url, name: planned[index].relativePath,
                                             keepMediaOpen: false, pathBytes: planned[index].pathBytes,
                                             sidecars: sidecars, confinedTo: planned[index].confinement)
                probe.releaseBuffers()
                if index >= budget { probe.detach() }
                slots.store(probe, at: index)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    do throws(AssetExecutor.Refusal) { try await executor.run { probeShare(worker) } } catch {
                        await BlockingWork.run { probeShare(worker) }
                    }
                }
            }
        }
        return slots.all()
    }
}
