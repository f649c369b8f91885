import Dispatch
import Synchronization

/// Holds a data source's diff queue inside a comparator call, the first time it is
/// called, until released: the calls made meanwhile are then taken by one drain.
///
/// ```swift
/// let hold = DiffQueueHold()
/// source.sort(by: { hold.holdOnce(); return $0.key < $1.key })
/// hold.entered.wait()
/// source.remove(ids: [4]); source.add(row)   // coalesced
/// hold.release.signal()
/// ```
public final class DiffQueueHold: Sendable {
    /// Signalled when the diff queue is held.
    public let entered = DispatchSemaphore(value: 0)
    /// Signal to let the diff queue go on.
    public let release = DispatchSemaphore(value: 0)
    private let armed = Atomic<Bool>(true)

    public init() {}

    /// Holds the calling thread the first time; returns at once afterwards.
    public func holdOnce() {
        guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        entered.signal()
        release.wait()
    }
}
