import ListEngine

/// Plays the live leaderboard feed into a data source: score changes update players,
/// joins add them, departures remove them.
///
/// Event *k* (from 0) is applied at `start + (k + 1) × interval` on the clock, measured
/// from when ``play(into:every:clock:onEvent:)`` starts, so a late wake-up catches up
/// instead of drifting, and a `ManualClock` advanced by 10 intervals plays 10 events.
///
/// ```swift
/// let fixtures = try FixtureDirectory.locate()
/// let feed = LiveFeed(events: try fixtures.loadFeed(), roster: try fixtures.loadPlayers())
/// let board = ListDataSource(try fixtures.loadPlayers())
/// try await feed.play(into: board, every: .milliseconds(50), clock: ContinuousClock())
/// ```
public struct LiveFeed: Sendable {
    /// The events, in order.
    public var events: [FeedEvent]
    /// The players before the first event (score updates need their names).
    public var roster: [Player]

    /// Creates a feed.
    ///
    /// - Parameters:
    ///   - events: the events, in order.
    ///   - roster: every player before the first event. A repeated id is one player:
    ///     the last row for it wins, as in `ListDataSource.add(_:)`.
    public init(events: [FeedEvent], roster: [Player]) {
        self.events = events
        self.roster = roster
    }

    /// The fixture feed over the fixture players.
    ///
    /// - Parameter directory: the fixtures; the events come from ``FixtureDirectory/feedURL``
    ///   and the roster from ``FixtureDirectory/playersURL``.
    /// - Throws: ``FixtureError`` for a missing or broken file.
    /// - Complexity: O(*b*) to read and decode *b* bytes of files.
    public init(directory: FixtureDirectory) throws(FixtureError) {
        self.init(events: try directory.loadFeed(), roster: try directory.loadPlayers())
    }

    /// The roster by id, the last row for a repeated id winning.
    private var _rosterByID: [String: Player] {
        Dictionary(roster.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The players after applying every event to `roster`, in server order.
    ///
    /// - Returns: the players left after the last event, sorted by `<` (score
    ///   descending, then id ascending).
    /// - Complexity: O(*e* + *n* log *n*) for *e* events and *n* players.
    public func finalPlayers() -> [Player] {
        var players = _rosterByID
        for event in events { _ = event.apply(to: &players) }
        return players.values.sorted(by: <)
    }

    /// Plays the events into `dataSource`, one every `interval` on `clock`.
    ///
    /// Each event becomes one `add` or `remove` call. Events that name unknown players
    /// are skipped.
    /// - Parameters:
    ///   - dataSource: the list to update.
    ///   - interval: the time between events; zero plays them all at once.
    ///   - clock: the clock to pace on.
    ///   - onEvent: called after each event is submitted, with its index.
    /// - Throws: `CancellationError` when the task is cancelled; the events played so far stay.
    ///   With a positive `interval`, whatever `clock`'s `sleep(until:tolerance:)` throws.
    /// - Complexity: O(*n* + *e*) on the calling task for *n* roster players and *e*
    ///   events, spread over *e* × `interval` on `clock`; each event costs the data
    ///   source O(log *m*) on its diff queue, for *m* rows.
    public func play<C: Clock>(
        into dataSource: ListDataSource<Player>,
        every interval: Duration,
        clock: C,
        onEvent: (@Sendable (Int, FeedEvent) -> Void)? = nil
    ) async throws where C.Duration == Duration {
        precondition(interval >= .zero, "LiveFeed interval must not be negative")
        var players = _rosterByID
        let start = clock.now
        for (index, event) in events.enumerated() {
            if interval > .zero {
                try await clock.sleep(until: start.advanced(by: interval * (index + 1)), tolerance: nil)
            } else {
                try Task.checkCancellation()
            }
            switch event.apply(to: &players) {
            case .add(let player)?: dataSource.add(player)
            case .remove(let id)?: dataSource.remove(ids: [id])
            case nil: break
            }
            onEvent?(index, event)
        }
    }
}
