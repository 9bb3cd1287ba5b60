import JournalMedia
import Synchronization

/// Admits a request before its body is read, and bounds the bytes buffered across all
/// requests. Every body the server reads (`/v1/assets`, `/v1/suggestions`, `/v1/dates`) is
/// held in memory until its request ends; the executor only bounds the work, not those
/// bytes. So, before the first body byte is read:
///
/// - an upload for the executor (`/v1/assets`, `/v1/suggestions`) is refused with 503 +
///   `Retry-After` (reason `busy`) when `maxUploads` (`maxConcurrentAssets + maxQueued`)
///   uploads are already being read, waiting or processed;
/// - a body is refused with 413 when its `Content-Length` is over the whole budget, and
///   with 503 + `Retry-After` when the budget left cannot hold it.
///
/// A body without `Content-Length` (chunked) reserves as it grows, so it can also be refused
/// with 503 part-way. The reservation is given back when the request ends (`Ticket.release`).
/// Made once per server; costs one lock round per admission, growth and release.
final class UploadAdmission: Sendable {
    /// Most bytes of request bodies held at once.
    let budgetBytes: Int
    /// Most executor uploads admitted at once.
    let maxUploads: Int
    private let state = Mutex<(bytes: Int, uploads: Int)>((0, 0))

    init(budgetBytes: Int, maxUploads: Int) {
        self.budgetBytes = max(1, budgetBytes)
        self.maxUploads = max(1, maxUploads)
    }

    /// Bytes and uploads admitted now.
    var inUse: (bytes: Int, uploads: Int) { state.withLock { $0 } }

    /// One admitted request: its reserved bytes, given back by `release()` (idempotent).
    final class Ticket: Sendable {
        private let admission: UploadAdmission
        private let countsAsUpload: Bool
        private let reserved: Mutex<Int?>

        fileprivate init(admission: UploadAdmission, countsAsUpload: Bool, bytes: Int) {
            self.admission = admission
            self.countsAsUpload = countsAsUpload
            reserved = Mutex(bytes)
        }

        /// Reserves up to `total` bytes for this request; false when the budget cannot.
        func grow(to total: Int) -> Bool {
            reserved.withLock { reserved in
                guard let held = reserved else { return false }
                guard total > held else { return true }
                guard admission.take(total - held) else { return false }
                reserved = total
                return true
            }
        }

        /// Gives the bytes (and the upload's place) back.
        func release() {
            let held = reserved.withLock { reserved -> Int? in
                defer { reserved = nil }
                return reserved
            }
            guard let held else { return }
            admission.state.withLock { state in
                state.bytes -= held
                if countsAsUpload { state.uploads -= 1 }
            }
        }
    }

    /// Admits a request declaring `declared` body bytes (nil: unknown, reserved as it
    /// grows), or says why not. `countsAsUpload`: it will take an executor slot.
    func admit(declared: Int?, countsAsUpload: Bool) -> Result<Ticket, ProblemResponse> {
        let bytes = max(0, declared ?? 0)
        if bytes > budgetBytes {
            return .failure(ProblemResponse(.contentTooLarge,
                                            "limits: \(bytes) bytes is over the server's body budget of \(budgetBytes) bytes",
                                            reason: "overByteLimit", stage: "limits"))
        }
        let refusal = state.withLock { state -> String? in
            if countsAsUpload && state.uploads >= maxUploads { return "too many uploads in progress" }
            if state.bytes + bytes > budgetBytes { return "the bytes of the bodies being read are at the server's budget" }
            state.bytes += bytes
            if countsAsUpload { state.uploads += 1 }
            return nil
        }
        if let refusal { return .failure(Self.busy(refusal)) }
        return .success(Ticket(admission: self, countsAsUpload: countsAsUpload, bytes: bytes))
    }

    fileprivate func take(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard state.bytes + bytes <= budgetBytes else { return false }
            state.bytes += bytes
            return true
        }
    }

    /// 503 + `Retry-After`, reason `busy`.
    static func busy(_ why: String) -> ProblemResponse {
        ProblemResponse(asset: AssetError(file: "", stage: .read, reason: .busy, message: "\(why); try again later"),
                        retryAfter: AssetRoutes.retryAfterSeconds)
    }
}
