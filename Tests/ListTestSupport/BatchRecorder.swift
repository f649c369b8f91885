import ListEngine

/// A renderer that records every batch it receives, optionally slowly.
public final class BatchRecorder<Item: Hashable & DataSourceComparable>: ListRenderer {
    private let recorded = LockedState<[ChangeBatch<Item>]>([])
    private let delayMicroseconds: UInt32

    /// - Parameter delayMicroseconds: how long each `render` call blocks, to play a slow renderer.
    public init(delayMicroseconds: UInt32 = 0) {
        self.delayMicroseconds = delayMicroseconds
    }

    public func render(_ batch: ChangeBatch<Item>) {
        if delayMicroseconds > 0 { _sleep(microseconds: delayMicroseconds) }
        recorded.withLock { $0.append(batch) }
    }

    /// Every batch so far, in the order received.
    public var batches: [ChangeBatch<Item>] { recorded.withLock { $0 } }

    /// Removes and returns the batches received so far.
    public func take() -> [ChangeBatch<Item>] { recorded.withLock { batches in defer { batches = [] }; return batches } }

    /// The rows obtained by replaying every batch's steps from an empty list.
    public func replayedRows() -> [Item] {
        var rows: [Item] = []
        for batch in batches {
            if batch.old.isEmpty && batch.insertions.count == batch.new.count && batch.old.version == 0 { rows = [] }
            batch.apply(to: &rows)
        }
        return rows
    }
}

#if canImport(Glibc)
import Glibc
private func _sleep(microseconds: UInt32) { usleep(microseconds) }
#elseif canImport(Darwin)
import Darwin
private func _sleep(microseconds: UInt32) { usleep(microseconds) }
#endif
