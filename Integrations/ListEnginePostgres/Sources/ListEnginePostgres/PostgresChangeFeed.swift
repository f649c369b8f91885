import Foundation
import ListEngine
import ListPagination
import Logging
import PostgresNIO
import Synchronization

/// Keeps paginators live from PostgreSQL: it LISTENs on a channel that the table's
/// triggers notify (``PostgresChangeTriggers``), reads the changed rows by id, and
/// applies them to every subscribed paginator, which shows each where it falls inside
/// its window.
///
/// One feed serves every window of a process, on one connection of its own:
///
/// - A notification carries ids, never rows. The ids that arrive while a read runs are
///   read together next, so a burst of changes costs one query (`WHERE id = ANY($1)`)
///   per process, not one per window; the rows found are upserted into every
///   paginator and the ids not found are removed, in one batch per paginator
///   (`Paginator.apply(upserting:removing:)`).
/// - Rows are read after their notification, so a window gets a row as it is at least
///   as late as the change; a change made while a page loads wins over the page's copy
///   (the paginator sees to it).
/// - When the connection drops (the server restarts, a proxy cuts it, an administrator
///   terminates it), the feed connects again, LISTENs again, and then resyncs every
///   paginator: it reads the rows between the paginator's first and last row (open at
///   an end the paginator reached) and applies them, and removes the loaded rows no
///   longer there, in one batch. A change committed while no connection listened is
///   read by that resync, so none is missed. A `TRUNCATE` resyncs every paginator too.
///   A paginator none of whose rows is left there is refreshed: it starts again from
///   the top, in one batch.
///
/// Subscribe a paginator before its first page loads, once the feed listens
/// (``waitUntilListening()``), so that no change falls between its page and the feed.
///
/// ```swift
/// let feed = PostgresChangeFeed(configuration: configuration, channel: "players_changes", loader: loader)
/// Task { try await feed.run() }
/// try await feed.waitUntilListening()
/// let subscription = feed.subscribe(paginator)
/// paginator.loadNextPage()
/// ```
public final class PostgresChangeFeed<Item: Hashable & DataSourceComparable & Sendable>: Sendable
where Item.ID: PostgresArrayEncodable & LosslessStringConvertible & Sendable {
    /// A subscribed paginator's entry; ``cancel()`` ends it.
    public struct Subscription: Sendable {
        fileprivate let id: Int
        fileprivate let feed: PostgresChangeFeed<Item>

        /// Stops applying changes to the paginator.
        ///
        /// - Complexity: O(1).
        public func cancel() { feed.unsubscribe(id) }
    }

    /// What the feed has done, for status pages and tests.
    public struct Statistics: Sendable, Equatable {
        /// Notifications received.
        public var notifications = 0
        /// Reads of changed rows by id (one per burst).
        public var reads = 0
        /// Ids read by those queries.
        public var idsRead = 0
        /// Times the feed connected and LISTENed (1 after the first).
        public var connections = 0
        /// Resyncs of every paginator (after a reconnection or a `TRUNCATE`).
        public var resyncs = 0
        /// Subscribed paginators.
        public var subscribers = 0
    }

    private struct Subscriber: Sendable {
        let apply: @Sendable ([Item], [Item.ID]) -> Void
        let resync: @Sendable (PostgresConnection) async throws -> Void
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var pending: Set<Item.ID> = []
        var resyncPending = false
        var wake: CheckedContinuation<Void, Never>?
        var listening: [CheckedContinuation<Void, Never>] = []
        var isListening = false
        var statistics = Statistics()
    }

    /// The channel the feed LISTENs on.
    public let channel: String
    private let configuration: PostgresConnection.Configuration
    private let loader: PostgresKeysetLoader<Item>
    private let logger: Logger
    private let state = Mutex(State())

    /// Creates a feed; it does nothing until ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: how to connect; the feed keeps one connection of its own.
    ///   - channel: the channel the triggers notify.
    ///   - loader: the relation, columns and row decoding the feed reads rows with.
    ///   - logger: where the feed logs its connections and failures.
    /// - Complexity: O(1).
    public init(configuration: PostgresConnection.Configuration, channel: String, loader: PostgresKeysetLoader<Item>, logger: Logger = Logger(label: "ListEnginePostgres.feed")) {
        self.configuration = configuration
        self.channel = channel
        self.loader = loader
        self.logger = logger
    }

    /// Counters since the feed was made.
    ///
    /// - Complexity: O(1).
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.subscribers = state.subscribers.count
            return statistics
        }
    }

    /// Applies the table's changes to `paginator` from now on, until the subscription
    /// is cancelled (the feed holds the paginator until then).
    ///
    /// - Parameter paginator: a paginator of this feed's items, paging the feed's
    ///   relation in the same order (with the feed's loader, or any loader that reads
    ///   the same rows, such as a `KeysetLoader` over ``PostgresKeysetLoader/rows(at:count:)``).
    /// - Returns: the subscription.
    /// - Complexity: O(1).
    public func subscribe<Loader: PageLoader, C: Clock>(_ paginator: Paginator<Loader, C>) -> Subscription where Loader.Item == Item {
        let loader = loader
        let subscriber = Subscriber(
            apply: { upserts, removals in paginator.apply(upserting: upserts, removing: removals) },
            resync: { connection in
                let rows = paginator.dataSource.snapshot
                guard let first = rows.first, let last = rows.last else { return }
                let status = paginator.status
                let startReached = if case .exhausted = status.prepend { true } else { false }
                let endReached = if case .exhausted = status.append { true } else { false }
                let now = try await loader.rows(
                    from: startReached ? nil : loader.key(first), through: endReached ? nil : loader.key(last), on: connection
                )
                guard !now.isEmpty else {
                    // Nothing is left between its first and last row: it starts again
                    // from the top, one batch (and open at both ends if the table is empty).
                    paginator.refresh()
                    return
                }
                let present = Set(now.map(\.id))
                paginator.apply(upserting: now, removing: rows.lazy.map(\.id).filter { !present.contains($0) })
            }
        )
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = subscriber
            return state.nextID
        }
        return Subscription(id: id, feed: self)
    }

    private func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Returns once the feed LISTENs (after the first connection).
    ///
    /// - Complexity: O(1) once it listens.
    public func waitUntilListening() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isListening = state.withLock { state in
                if !state.isListening { state.listening.append(continuation) }
                return state.isListening
            }
            if isListening { continuation.resume() }
        }
    }

    /// Connects, LISTENs and applies changes until the task is cancelled; connects again
    /// (after 0.1 s, then up to 2 s between tries) whenever the connection fails, and
    /// then resyncs every paginator.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    /// - Complexity: per burst of notifications, one query of the ids changed and
    ///   O(*w*) calls for *w* subscribed paginators; per reconnection, one range query
    ///   per paginator.
    public func run() async throws {
        var delay = Duration.milliseconds(100)
        var isFirst = true
        while true {
            try Task.checkCancellation()
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                delay = .milliseconds(100)
                defer { Task { try? await connection.close() } }
                try await listen(on: connection, resync: !isFirst)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.warning("change feed connection lost; connecting again", metadata: ["error": "\(String(reflecting: error))"])
            }
            isFirst = false
            state.withLock { $0.isListening = false }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    /// LISTENs on `connection` and applies what comes until it fails.
    private func listen(on connection: PostgresConnection, resync: Bool) async throws {
        try await connection.listen(on: channel) { notifications in
            let waiting = state.withLock { state in
                state.isListening = true
                state.statistics.connections += 1
                // Whatever was pending is covered by the resync.
                if resync { state.resyncPending = true }
                defer { state.listening = [] }
                return state.listening
            }
            for continuation in waiting { continuation.resume() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.apply(on: connection) }
                group.addTask {
                    for try await notification in notifications {
                        self.received(notification.payload)
                    }
                    throw PostgresChangeFeedError.listenEnded
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }

    /// Notes a notification's ids (or a resync for `*`), and wakes the reader.
    private func received(_ payload: String) {
        let ids: [Item.ID]?
        if payload == "*" {
            ids = nil
        } else if let data = payload.data(using: .utf8), let texts = try? JSONDecoder().decode([String].self, from: data) {
            ids = texts.compactMap(Item.ID.init)
        } else {
            logger.warning("notification payload is not a JSON array of ids; resyncing", metadata: ["payload": "\(payload.prefix(200))"])
            ids = nil
        }
        let wake = state.withLock { state in
            state.statistics.notifications += 1
            if let ids { state.pending.formUnion(ids) } else { state.resyncPending = true }
            defer { state.wake = nil }
            return state.wake
        }
        wake?.resume()
    }

    /// Reads and applies what is pending, then waits for more, until the connection
    /// fails.
    private func apply(on connection: PostgresConnection) async throws {
        while true {
            let (ids, resync, subscribers) = try await nextWork()
            if resync {
                for subscriber in subscribers { try await subscriber.resync(connection) }
                state.withLock { $0.statistics.resyncs += 1 }
                continue
            }
            let rows: [Item]
            do {
                rows = try await loader.rows(ids: ids, on: connection)
            } catch {
                // Read them again on the next connection: a resync covers them.
                state.withLock { $0.resyncPending = true }
                throw error
            }
            let found = Set(rows.map(\.id))
            let removed = ids.filter { !found.contains($0) }
            state.withLock { state in
                state.statistics.reads += 1
                state.statistics.idsRead += ids.count
            }
            for subscriber in subscribers { subscriber.apply(rows, removed) }
        }
    }

    private typealias Work = (ids: [Item.ID], resync: Bool, subscribers: [Subscriber])

    /// Waits until ids or a resync are pending, and takes them.
    ///
    /// - Throws: `CancellationError` when the task is cancelled (the connection failed).
    private func nextWork() async throws -> Work {
        while true {
            try Task.checkCancellation()
            let work = state.withLock { state -> Work? in
                if state.resyncPending {
                    state.resyncPending = false
                    state.pending = []
                    return ([], true, Array(state.subscribers.values))
                }
                guard !state.pending.isEmpty else { return nil }
                defer { state.pending = [] }
                return (Array(state.pending), false, Array(state.subscribers.values))
            }
            if let work { return work }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let isReady = state.withLock { state -> Bool in
                        if state.resyncPending || !state.pending.isEmpty || Task.isCancelled { return true }
                        state.wake = continuation
                        return false
                    }
                    if isReady { continuation.resume() }
                }
            } onCancel: {
                let wake = state.withLock { state in
                    defer { state.wake = nil }
                    return state.wake
                }
                wake?.resume()
            }
        }
    }
}

/// Why the feed's connection was given up.
enum PostgresChangeFeedError: Error {
    /// The notification sequence ended: the connection closed.
    case listenEnded
}
