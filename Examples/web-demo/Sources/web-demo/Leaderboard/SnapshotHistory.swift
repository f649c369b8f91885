import LeaderboardFixtures
import Synchronization
import WebListRenderer

/// The recent versions of a window's list, so that `/snapshot?version=N` can answer with
/// exactly the rows a browser at version N should show, in the window's format (flat
/// rows, or tier sections).
///
/// It keeps the versions as the wire format does: one snapshot, the oldest version kept
/// (a ``WebListReplica``: each row's id and markup), and the batch messages since, each a
/// few hundred bytes for a feed change. Version N is the replica with the batches up to
/// N applied. Keeping every version as a ``SectionedSnapshot`` would cost far more: a
/// window's few hundred rows fit in one leaf of the list's storage, so each version's
/// snapshot holds a copy of all of them.
///
/// The batches kept are bounded in bytes (``budget``, their rows' ids and markup and a
/// little per step): past it the oldest batches are applied to the replica, which moves
/// the oldest version kept forward. So a window's history costs one copy of its rows'
/// markup plus at most ``budget`` bytes, however fast the feed.
final class SnapshotHistory: SectionedListRenderer {
    enum Lookup {
        case found(WebListMessage)
        /// The version is newer than any rendered yet.
        case notYet(newest: Int?)
        /// The version is older than any kept.
        case gone(oldest: Int)
    }

    private struct State {
        /// The oldest version kept; no version until the first batch.
        var base = WebListReplica()
        /// The batch messages after `base`, oldest first, with their sizes.
        var batches: [(message: WebListMessage, bytes: Int)] = []
        var first = 0
        var bytes = 0
    }

    /// The most bytes of batch messages kept (at least the newest batch is kept).
    let budget: Int
    private let isGrouped: Bool
    private let state = Mutex(State())

    /// - Parameters:
    ///   - grouped: whether versions are told as tier sections (`/?group=tier`).
    ///   - budget: the most bytes of batch messages to keep.
    init(grouped: Bool, budget: Int) {
        self.isGrouped = grouped
        self.budget = budget
    }

    func render(_ batch: SectionedChangeBatch<LeaderboardTier, Player>) {
        let message = isGrouped ? TierSections.format.message(for: batch) : PlayerRow.format.message(for: batch.rows)
        let bytes = Self.size(of: message)
        let start = state.withLock { $0.base.version == nil }
            ? (isGrouped ? TierSections.format.snapshotMessage(for: batch.old) : PlayerRow.format.snapshotMessage(for: batch.old.rows))
            : nil
        state.withLock { state in
            if let start { _ = state.base.apply(start) }
            state.batches.append((message, bytes))
            state.bytes += bytes
            // The oldest batches go into the replica, keeping the newest one.
            while state.bytes > budget, state.batches.count - state.first > 1 {
                let oldest = state.batches[state.first]
                _ = state.base.apply(oldest.message)
                state.bytes -= oldest.bytes
                state.first += 1
            }
            // Drop the applied batches' slots once they are half the array.
            if state.first > 16, state.first * 2 > state.batches.count {
                state.batches.removeFirst(state.first)
                state.first = 0
            }
        }
    }

    /// The snapshot message of `version`, while it is kept.
    ///
    /// - Complexity: O(*r* + *s*) for *r* rows and *s* steps of the batches replayed.
    func snapshot(version: Int) -> Lookup {
        let found: (base: WebListReplica, batches: ArraySlice<(message: WebListMessage, bytes: Int)>)? = state.withLock { state in
            guard let oldest = state.base.version else { return nil }
            let newest = state.batches.last?.message.version ?? oldest
            guard oldest <= version, version <= newest else { return nil }
            let end = state.batches[state.first...].firstIndex { $0.message.version > version } ?? state.batches.endIndex
            return (state.base, state.batches[state.first ..< end])
        }
        guard let found else {
            return state.withLock { state in
                guard let oldest = state.base.version else { return .notYet(newest: nil) }
                return version < oldest ? .gone(oldest: oldest) : .notYet(newest: state.batches.last?.message.version ?? oldest)
            }
        }
        var replica = found.base
        for batch in found.batches { _ = replica.apply(batch.message) }
        guard let at = replica.version else { return .notYet(newest: nil) }
        if let sections = replica.sections { return .found(.sectionedSnapshot(version: at, sections: sections)) }
        return .found(.snapshot(version: at, items: replica.rows))
    }

    /// About how many bytes a batch message holds: its rows' ids and markup, and a little
    /// per step.
    static func size(of message: WebListMessage) -> Int {
        func row(_ row: WebListRow) -> Int { row.id.utf8.count + row.html.utf8.count }
        switch message {
        case .batch(_, _, let steps):
            return 64 + steps.reduce(0) { total, step in
                switch step {
                case .insert(let item, _), .reload(let item, _): total + 32 + row(item)
                case .remove, .move: total + 32
                }
            }
        case .sectionedBatch(_, _, let steps):
            return 64 + steps.reduce(0) { total, step in
                switch step {
                case .insert(let item, _), .reload(let item, _): total + 48 + row(item)
                case .insertSection(let key, let title, _): total + 48 + key.utf8.count + title.utf8.count
                case .remove, .move, .removeSection: total + 48
                }
            }
        case .snapshot(_, let items):
            return items.reduce(64) { $0 + 32 + row($1) }
        case .sectionedSnapshot(_, let sections):
            return sections.reduce(64) { total, section in section.items.reduce(total + 64) { $0 + 32 + row($1) } }
        }
    }
}
