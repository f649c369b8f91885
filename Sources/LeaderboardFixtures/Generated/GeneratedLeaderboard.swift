import ListEngine
import ListPagination

/// A leaderboard of any size up to 10,000,000 players, generated on the fly: player *r*
/// (rank *r* + 1 before any change) is computed from *r*, never stored, so the source
/// costs the same memory at 1,000 players as at 10,000,000.
///
/// Scores fall from 99,999 at the top to 0 at the bottom; ids are `p` and the rank in
/// eight digits, so ids sort as ranks do and score ties keep rank order. Live score
/// changes are kept as an overlay (the changed players, by id), which the keyset pages
/// and ranks take into account: a page is the source as it stands now, and ``rank(of:)``
/// is the true rank, not an offset in whatever window shows it.
///
/// ```swift
/// let source = GeneratedLeaderboard(count: 1_000_000)
/// let loader = KeysetLoader<Player, LiveLeaderboard.Key>(limit: 50, key: LiveLeaderboard.Key.init) { cursor, count in
///     source.page(cursor, limit: count)
/// }
/// let paginator = Paginator(dataSource: ListDataSource<Player>(), loader: loader, maxLoadedRows: 1_000)
/// paginator.jump(to: .before(GeneratedLeaderboard.end))   // the last players
/// ```
public final class GeneratedLeaderboard: Sendable {
    /// A position in the leaderboard's order: a keyset cursor's key.
    public typealias Key = LiveLeaderboard.Key

    /// The most players a generated leaderboard has.
    public static let maximumCount = 10_000_000

    /// How many players there are; changes move players, never add or remove them.
    public let count: Int

    private struct Overlay {
        /// The changed players, by id.
        var changed: [String: Player] = [:]
        /// The same players, in list order.
        var sorted: [Player] = []
        /// The base ranks of the changed players (where they were generated), in order.
        var baseRanks: [Int] = []
    }

    private let overlay = LockedState(Overlay())
    /// Picks the live changes of ``playChanges(_:favoring:)``.
    private let feedRandom = LockedState(NameRandom(seed: 2_026))

    /// Creates the leaderboard.
    ///
    /// - Parameter count: players, 1 to ``maximumCount``.
    /// - Complexity: O(1).
    public init(count: Int) {
        precondition((1...Self.maximumCount).contains(count), "a generated leaderboard has 1 to \(Self.maximumCount) players, not \(count)")
        self.count = count
    }

    // MARK: Generated players

    /// The score of the player generated at `rank`: 99,999 down to 0, never rising.
    ///
    /// - Parameter rank: a base rank, from 0 to `count - 1`.
    /// - Complexity: O(1).
    public func baseScore(at rank: Int) -> Int {
        count == 1 ? 99_999 : Int(Int64(99_999) * Int64(count - 1 - rank) / Int64(count - 1))
    }

    /// The id of the player generated at `rank`: `p` and the rank in eight digits.
    ///
    /// - Parameter rank: a base rank, from 0.
    /// - Complexity: O(1).
    public static func id(at rank: Int) -> String {
        let digits = String(rank)
        return "p" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The base rank encoded in a generated id; `nil` for any other id.
    static func rank(ofID id: String) -> Int? {
        guard id.utf8.count == 9, id.first == "p" else { return nil }
        return Int(id.dropFirst())
    }

    /// The player generated at `rank`, before any change: the same on every run.
    ///
    /// - Parameter rank: a base rank, from 0 to `count - 1`.
    /// - Complexity: O(1).
    public func basePlayer(at rank: Int) -> Player {
        var random = NameRandom(seed: UInt64(rank))
        return Player(id: Self.id(at: rank), name: random.name(), score: baseScore(at: rank), country: random.country())
    }

    private func baseKey(at rank: Int) -> Key {
        Key(score: baseScore(at: rank), id: Self.id(at: rank))
    }

    /// The first base rank whose key is not before `key` (`strictlyAfter`: after `key`).
    private func baseRank(from key: Key, strictlyAfter: Bool) -> Int {
        (0..<count).partitioningIndex { rank in
            let candidate = baseKey(at: rank)
            return strictlyAfter ? key < candidate : !(candidate < key)
        }
    }

    // MARK: The source as it stands

    /// The player with this id as the source now has them; `nil` for an unknown id.
    ///
    /// - Parameter id: a player's id.
    /// - Complexity: O(1).
    public func player(id: String) -> Player? {
        guard let rank = Self.rank(ofID: id), rank < count else { return nil }
        return overlay.withLock { $0.changed[id] } ?? basePlayer(at: rank)
    }

    /// Gives a player a new score: the change a live feed makes.
    ///
    /// - Parameters:
    ///   - id: a generated player's id.
    ///   - score: the new score.
    /// - Returns: the player as changed, or `nil` for an unknown id.
    /// - Complexity: O(*m*) for *m* players changed so far.
    @discardableResult
    public func setScore(of id: String, to score: Int) -> Player? {
        guard let rank = Self.rank(ofID: id), rank < count else { return nil }
        return overlay.withLock { overlay in
            var player = overlay.changed[id] ?? basePlayer(at: rank)
            if let old = overlay.changed[id] {
                overlay.sorted.remove(at: overlay.sorted.partitioningIndex { !($0 < old) })
            } else {
                overlay.baseRanks.insert(rank, at: overlay.baseRanks.partitioningIndex { $0 >= rank })
            }
            player.score = score
            overlay.changed[id] = player
            overlay.sorted.insert(player, at: overlay.sorted.partitioningIndex { !($0 < player) })
            return player
        }
    }

    /// Plays `count` live score changes, the same ones on every run, and returns the
    /// players as changed (give them to `Paginator.upsert(_:)`).
    ///
    /// Three changes in four are to one of `favored` (the loaded rows, so that they show),
    /// the others to any player, whom a window ignores unless the new score lands inside
    /// it. A score moves by up to about 30 ranks' worth of points either way (at least 1
    /// point), within 0…99,999.
    ///
    /// - Parameters:
    ///   - count: how many changes to play.
    ///   - favored: players to change more often; may be empty.
    /// - Returns: the changed players, in the order changed.
    /// - Complexity: O(*count* · *m*) for *m* players changed so far.
    public func playChanges(_ count: Int, favoring favored: some RandomAccessCollection<Player>) -> [Player] {
        let reach = max(1, 30 * 100_000 / self.count)
        var changed: [Player] = []
        for _ in 0..<count {
            let (pick, change, anyRank) = feedRandom.withLock { random in
                (random.next(below: 4), random.next(below: 2 * reach + 1) - reach, random.next(below: self.count))
            }
            let id = if pick > 0, !favored.isEmpty {
                favored[favored.index(favored.startIndex, offsetBy: anyRank % favored.count)].id
            } else {
                Self.id(at: anyRank)
            }
            guard let player = player(id: id), let updated = setScore(of: id, to: min(99_999, max(0, player.score + change))) else { continue }
            changed.append(updated)
        }
        return changed
    }

    /// How many players rank above `player` now: its rank minus one, whatever part of
    /// the list is loaded.
    ///
    /// - Parameter player: a player as the source now has them.
    /// - Returns: the number of players that sort before `player`.
    /// - Complexity: O(log *n* + log *m*) for *n* players and *m* changed.
    public func rank(of player: Player) -> Int {
        let key = Key(player)
        let baseBefore = baseRank(from: key, strictlyAfter: false)
        return overlay.withLock { overlay in
            // Base rows before the key, less those that moved away, plus the moved rows
            // now before it; the player itself is not counted either way.
            let movedAway = overlay.baseRanks.partitioningIndex { $0 >= baseBefore }
            let movedIn = overlay.sorted.partitioningIndex { !(Key($0) < key) }
            return baseBefore - movedAway + movedIn
        }
    }

    /// Up to `count` players of a keyset page, in list order: the first ones, those right
    /// after or right before a key (the keyed player excluded), or those before it and
    /// the keyed one: what a `KeysetLoader`'s fetch returns.
    ///
    /// - Parameters:
    ///   - cursor: where the page is; `nil` for the first players.
    ///   - limit: the most players to return.
    /// - Returns: the players, as the source now has them.
    /// - Complexity: O(*limit* + log *n* + log *m*), plus O(1) per changed player
    ///   skipped on the way.
    public func page(_ cursor: KeysetCursor<Key>?, limit: Int) -> [Player] {
        overlay.withLock { overlay in
            switch cursor {
            case nil:
                return forward(from: 0, overlayFrom: 0, limit: limit, overlay)
            case .after(let key)?:
                let rank = baseRank(from: key, strictlyAfter: true)
                let moved = overlay.sorted.partitioningIndex { key < Key($0) }
                return forward(from: rank, overlayFrom: moved, limit: limit, overlay)
            case .before(let key)?:
                let rank = baseRank(from: key, strictlyAfter: false)
                let moved = overlay.sorted.partitioningIndex { !(Key($0) < key) }
                return backward(before: rank, overlayBefore: moved, limit: limit, overlay)
            case .through(let key)?:
                let rank = baseRank(from: key, strictlyAfter: true)
                let moved = overlay.sorted.partitioningIndex { key < Key($0) }
                return backward(before: rank, overlayBefore: moved, limit: limit, overlay)
            }
        }
    }

    /// Merges base rows from `rank` on with moved rows from `overlayIndex` on, skipping
    /// base rows that moved, until `limit`.
    private func forward(from rank: Int, overlayFrom overlayIndex: Int, limit: Int, _ overlay: Overlay) -> [Player] {
        var rows: [Player] = []
        var rank = rank, moved = overlayIndex
        while rows.count < limit {
            while rank < count, overlay.changed[Self.id(at: rank)] != nil { rank += 1 }
            let base = rank < count ? baseKey(at: rank) : nil
            let next = moved < overlay.sorted.count ? overlay.sorted[moved] : nil
            if let next, base.map({ Key(next) < $0 }) ?? true {
                rows.append(next)
                moved += 1
            } else if base != nil {
                rows.append(basePlayer(at: rank))
                rank += 1
            } else {
                return rows
            }
        }
        return rows
    }

    /// The same as ``forward(from:overlayFrom:limit:_:)``, walking up from just before
    /// `rank` and `overlayIndex`; returns the rows in list order.
    private func backward(before rank: Int, overlayBefore overlayIndex: Int, limit: Int, _ overlay: Overlay) -> [Player] {
        var rows: [Player] = []
        var rank = rank - 1, moved = overlayIndex - 1
        while rows.count < limit {
            while rank >= 0, overlay.changed[Self.id(at: rank)] != nil { rank -= 1 }
            let base = rank >= 0 ? baseKey(at: rank) : nil
            let next = moved >= 0 ? overlay.sorted[moved] : nil
            if let next, base.map({ $0 < Key(next) }) ?? true {
                rows.append(next)
                moved -= 1
            } else if base != nil {
                rows.append(basePlayer(at: rank))
                rank -= 1
            } else {
                return rows.reversed()
            }
        }
        return rows.reversed()
    }

    /// A key after every player's: the cursor `.before(GeneratedLeaderboard.end)` names
    /// the last page.
    public static let end = Key(score: Int.min, id: "")
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `predicate`, which is false, then true.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
