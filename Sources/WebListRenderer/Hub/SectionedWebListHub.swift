/// Serves one sectioned list to many clients: each gets a sectioned snapshot when it
/// joins, then every sectioned batch.
///
/// The hub is a `SectionedListRenderer`: attach it to a `SectionedListDataSource` once.
/// It works exactly as ``WebListHub`` does — each batch encoded once, one bounded queue
/// per client, a client that falls behind reset to a snapshot of the latest version,
/// versions that keep increasing when the hub is moved to another list — with sectioned
/// messages (see <doc:WireFormat#Sectioned-lists>). Clients read their frames through
/// ``subscribe()``, the same ``WebListSubscription`` a flat hub gives.
///
/// ```swift
/// let hub = SectionedWebListHub(format: SectionedWebListFormat<LeaderboardTier, Player>(
///     rows: WebListFormat { player in "<span class=\"name\">\(player.name)</span>" },
///     key: { tier in "\(tier)" },
///     title: { tier in tier.name }
/// ))
/// players.attach(hub)
///
/// // per browser connection:
/// for await frame in hub.subscribe() {
///     try await response.write(frame.serverSentEvent)
/// }
/// ```
public final class SectionedWebListHub<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: SectionedListRenderer {
    /// The bounds of each client's queue: those of a flat hub.
    public typealias Limits = WebListHub<Item>.Limits
    /// Counters, for monitoring and tests: those of a flat hub.
    public typealias Statistics = WebListHub<Item>.Statistics

    /// How sections and items become wire sections and rows.
    public var format: SectionedWebListFormat<Section, Item> { _core.format }
    /// The bounds of each client's queue.
    public let limits: Limits
    let _core: _HubCore<SectionedWebListFormat<Section, Item>>

    /// Creates a hub.
    ///
    /// - Parameters:
    ///   - format: how sections and items become wire sections and rows.
    ///   - limits: the bounds of each client's queue.
    public init(format: SectionedWebListFormat<Section, Item>, limits: Limits = Limits()) {
        precondition(limits.messages >= 1, "SectionedWebListHub.Limits.messages must be at least 1")
        precondition(limits.bytes >= 0, "SectionedWebListHub.Limits.bytes must not be negative")
        self.limits = limits
        _core = _HubCore(format: format, messages: limits.messages, bytes: limits.bytes)
    }

    /// Publishes a batch to every client, as ``WebListHub/render(_:)`` does.
    ///
    /// - Parameter batch: the batch the data source delivers, from `batch.old` (what the
    ///   hub rendered last) to `batch.new`.
    /// - Complexity: O(*c* log *n* + *c* log *s*) plus formatting the changed rows to
    ///   encode, then O(1) per client, for *c* changes, *n* rows and *s* sections; never
    ///   waits for a client.
    public func render(_ batch: SectionedChangeBatch<Section, Item>) {
        _core.render(batch)
    }

    /// Adds a client. Its sequence yields a sectioned snapshot first (as soon as the hub
    /// has been attached), then batch frames, and ends when it is cancelled or the hub
    /// finishes; see ``WebListHub/subscribe()``.
    ///
    /// - Returns: the client's frames.
    /// - Complexity: O(1); the snapshot is formatted when it is read.
    public func subscribe() -> WebListSubscription {
        _core.subscribe()
    }

    /// The wire version of the last rendered batch; `nil` before the hub is attached.
    ///
    /// - Complexity: O(1).
    public var version: Int? { _core.version }

    /// Current counters.
    ///
    /// - Complexity: O(*c*) for *c* clients.
    public var statistics: Statistics {
        let statistics = _core.statistics
        return Statistics(clients: statistics.clients, batches: statistics.batches, resets: statistics.resets, longestQueue: statistics.longestQueue)
    }

    /// A sectioned snapshot message of the last rendered version, for a client that asks
    /// for one; `nil` before the hub is attached.
    ///
    /// - Returns: the encoded `snapshot` message of every section and row, or `nil`
    ///   before the hub is attached.
    /// - Complexity: O(*n* + *s* log *n*), once per version.
    public func snapshotFrame() -> WebListFrame? {
        _core.snapshotFrame()
    }

    /// Ends every subscription; later subscriptions end at once. Detach the hub from its
    /// data source as well.
    ///
    /// - Complexity: O(*c*) for *c* clients, plus freeing the frames still queued for them.
    public func finish() {
        _core.finish()
    }
}
