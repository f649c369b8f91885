import Dispatch
import Synchronization

/// One renderer's part of a `flush()`: leaves the flush's group exactly once.
@usableFromInline final class _FlushWait: Sendable {
    @usableFromInline let group: DispatchGroup
    @usableFromInline let isFinished = Atomic<Bool>(false)

    @inlinable init(entering group: DispatchGroup) {
        self.group = group
        group.enter()
    }

    @inlinable func finish() {
        if !isFinished.exchange(true, ordering: .acquiringAndReleasing) { group.leave() }
    }
}
