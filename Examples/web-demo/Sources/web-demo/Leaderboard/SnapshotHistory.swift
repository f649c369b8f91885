import LeaderboardFixtures
import Synchronization
import WebListRenderer

/// The most recent versions of the list, so `/snapshot?version=N` (flat) and
/// `/snapshot?group=tier&version=N` (grouped) can answer with exactly the rows a browser
/// at version N should show. It keeps the sectioned snapshots, whose `rows` are the flat
/// ones at the same version. Snapshots share their storage with the live list, so keeping
/// a few hundred costs little.
final class SnapshotHistory: SectionedListRenderer {
    enum Lookup {
        case found(SectionedSnapshot<LeaderboardTier, Player>)
        /// The version is newer than any rendered yet.
        case notYet(newest: Int?)
        /// The version is older than any kept.
        case gone(oldest: Int)
    }

    private struct State {
        var snapshots: [Int: SectionedSnapshot<LeaderboardTier, Player>] = [:]
        var oldest: Int?
        var newest: Int?
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        precondition(capacity >= 1, "SnapshotHistory needs room for at least one snapshot")
        self.capacity = capacity
    }

    func render(_ batch: SectionedChangeBatch<LeaderboardTier, Player>) {
        state.withLock { state in
            let version = batch.new.version
            state.snapshots[version] = batch.new
            state.newest = version
            if state.oldest == nil { state.oldest = version }
            while let oldest = state.oldest, oldest <= version - capacity {
                state.snapshots[oldest] = nil
                state.oldest = oldest + 1
            }
        }
    }

    func snapshot(version: Int) -> Lookup {
        state.withLock { state in
            if let snapshot = state.snapshots[version] { return .found(snapshot) }
            if let oldest = state.oldest, version < oldest { return .gone(oldest: oldest) }
            return .notYet(newest: state.newest)
        }
    }
}
