@_exported import ListEngine

/// A renderer that turns a list's batches into wire messages for one browser.
///
/// Attach it to a `ListDataSource`. The attach batch becomes a `snapshot` message;
/// every later batch becomes one `batch` message with `from`/`to` versions and the
/// batch's sequential steps. A batch that does not continue from the last rendered
/// version (the renderer was attached to another source) also becomes a snapshot, so the
/// stream of messages is always applicable in order. ``snapshotFrame()`` makes a
/// snapshot message of the last rendered version at any time, for a client that
/// detected a gap.
///
/// **Versions.** The messages carry the list's versions. When the renderer is moved to a
/// list whose version is not above the last one sent, the new list's versions are
/// shifted so that the renderer's versions keep increasing: a client then takes the
/// restart snapshot as newer than what it holds, and never applies the new list's
/// batches to the old list's rows.
///
/// ```swift
/// let renderer = WebListRenderer<Player>(format: WebListFormat { player in
///     "<span class=\"name\">\(player.name)</span> <b>\(player.score)</b>"
/// }) { frame in
///     connection.send(frame.json)
/// }
/// players.attach(renderer)
/// ```
///
/// To serve many browsers from one list, use ``WebListHub``, which encodes each batch
/// once and gives every client a bounded buffer.
public final class WebListRenderer<Item: Hashable & DataSourceComparable>: ListRenderer {
    /// How items become wire rows.
    public var format: WebListFormat<Item> { core.format }
    private let core: _RenderCore<WebListFormat<Item>>

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - format: how items become wire rows.
    ///   - send: receives each encoded message, on the queue the renderer is attached on,
    ///     in order.
    public init(format: WebListFormat<Item>, send: @escaping @Sendable (WebListFrame) -> Void) {
        core = _RenderCore(format: format, send: send)
    }

    /// Encodes `batch` and passes it to `send`: a snapshot message for the first batch
    /// (the attach batch) or a batch that does not continue from the last one, a batch
    /// message otherwise. An attach batch of an empty list at version 0 that follows an
    /// empty list at version 0 sends nothing.
    ///
    /// - Parameter batch: the batch the data source delivers, from `batch.old` (what the
    ///   renderer rendered last) to `batch.new`.
    /// - Complexity: O(*c* log *n*) plus formatting the changed rows, for *c* changes;
    ///   O(*n*) for a snapshot.
    public func render(_ batch: ChangeBatch<Item>) {
        core.render(batch)
    }

    /// The wire version of the last rendered batch (the list's version, unless the
    /// renderer was moved from a list with higher versions); `nil` before the attach batch.
    ///
    /// - Complexity: O(1).
    public var version: Int? { core.version }

    /// A snapshot message of the last rendered version; `nil` before the attach batch.
    ///
    /// - Returns: the encoded `snapshot` message of every row, or `nil` before the
    ///   attach batch.
    /// - Complexity: O(*n*) rows formatted.
    public func snapshotFrame() -> WebListFrame? {
        core.snapshotFrame()
    }
}
