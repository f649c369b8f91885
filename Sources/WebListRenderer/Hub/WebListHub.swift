
/// Serves one list to many clients: each gets a snapshot when it joins, then every batch.
///
/// The hub is a `ListRenderer`: attach it to a `ListDataSource` once. It encodes each
/// batch once and puts the same ``WebListFrame`` into every client's queue. Clients read
/// their frames through ``subscribe()``, an async sequence, at their own pace:
///
/// ```swift
/// let hub = WebListHub<Player>(format: WebListFormat { player in
///     "<span class=\"name\">\(player.name)</span> <b>\(player.score)</b>"
/// })
/// players.attach(hub)
///
/// // per browser connection:
/// for await frame in hub.subscribe() {
///     try await response.write(frame.serverSentEvent)
/// }
/// ```
///
/// **Slow clients.** Every client's queue is bounded by ``Limits``. A client that falls
/// so far behind that one more batch would exceed its limit is *reset*: its queue is
/// dropped and replaced with a single snapshot of the latest version, so its next read
/// brings it up to date in one message. Publishing never waits for a client and memory
/// per client never exceeds the limit: a queue holds only the frames its client has not
/// taken yet, and snapshots in a queue are list snapshots, which share their storage
/// with the live list, and are formatted only when read (once per version, however many
/// clients read it).
///
/// **Order.** Each client receives a snapshot first, then batches whose `from` is the
/// version of the message before — unless it is reset, in which case a newer snapshot
/// follows. A client that applies every message in order, as `list-client.js` does, is
/// always consistent.
public final class WebListHub<Item: Hashable & DataSourceComparable>: ListRenderer {
    /// The bounds of each client's queue.
    public struct Limits: Hashable, Sendable {
        /// The most messages a client may have waiting; at least 1.
        public var messages: Int
        /// The most bytes of batch messages a client may have waiting.
        public var bytes: Int

        /// Creates limits.
        ///
        /// A client whose queue would exceed either limit with one more batch message is
        /// reset to a snapshot.
        /// - Parameters:
        ///   - messages: the most messages a client may have waiting, at least 1; 256 by
        ///     default.
        ///   - bytes: the most bytes of batch messages (their JSON, in UTF-8) a client may
        ///     have waiting, not negative; 4 MiB (`4 << 20`) by default.
        public init(messages: Int = 256, bytes: Int = 4 << 20) {
            self.messages = messages
            self.bytes = bytes
        }
    }

    /// Counters, for monitoring and tests.
    public struct Statistics: Hashable, Sendable {
        /// Clients currently subscribed.
        public var clients: Int
        /// Batch messages published so far.
        public var batches: Int
        /// How often a client was reset to a snapshot because it fell behind.
        public var resets: Int
        /// The longest queue among the current clients, in messages.
        public var longestQueue: Int
    }

    /// How items become wire rows.
    public var format: WebListFormat<Item> { _core.format }
    /// The bounds of each client's queue.
    public let limits: Limits
    let _core: _HubCore<WebListFormat<Item>>

    /// Creates a hub.
    ///
    /// - Parameters:
    ///   - format: how items become wire rows.
    ///   - limits: the bounds of each client's queue.
    public init(format: WebListFormat<Item>, limits: Limits = Limits()) {
        precondition(limits.messages >= 1, "WebListHub.Limits.messages must be at least 1")
        precondition(limits.bytes >= 0, "WebListHub.Limits.bytes must not be negative")
        self.limits = limits
        _core = _HubCore(format: format, messages: limits.messages, bytes: limits.bytes)
    }

    /// The wire version of the last rendered batch (the list's version, unless the hub was
    /// moved from a list with higher versions); `nil` before the hub is attached.
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

    /// A snapshot message of the last rendered version, for a client that asks for one
    /// (the `/snapshot` endpoint of a server); `nil` before the hub is attached.
    ///
    /// - Returns: the encoded `snapshot` message of every row, or `nil` before the hub is
    ///   attached.
    /// - Complexity: O(*n*) rows formatted, once per version.
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
