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
    public let format: WebListFormat<Item>
    private let send: @Sendable (WebListFrame) -> Void
    /// The last rendered snapshot, and what is added to its list's versions on the wire.
    private let rendered = LockedState<_WireSnapshot<Item>?>(nil)
    /// Held for the whole of each render.
    private let renderLock = LockedState(())

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - format: how items become wire rows.
    ///   - send: receives each encoded message, on the queue the renderer is attached on,
    ///     in order.
    public init(format: WebListFormat<Item>, send: @escaping @Sendable (WebListFrame) -> Void) {
        self.format = format
        self.send = send
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
        // Renders of a renderer moved between lists can overlap (a render of the list it
        // left may still be running): one at a time, so that messages go out in order.
        renderLock.withLock { _ in _render(batch) }
    }

    private func _render(_ batch: ChangeBatch<Item>) {
        let (latest, next) = rendered.withLock { rendered in
            let following = _WireSnapshot.following(rendered, with: batch)
            rendered = following.latest
            return following
        }
        switch next {
        case .nothing: return
        case .batch: send(WebListFrame(latest.message(for: batch, format: format)))
        case .snapshot: send(WebListFrame(latest.snapshotMessage(format: format)))
        }
    }

    /// The wire version of the last rendered batch (the list's version, unless the
    /// renderer was moved from a list with higher versions); `nil` before the attach batch.
    ///
    /// - Complexity: O(1).
    public var version: Int? { rendered.withLock { $0?.wireVersion } }

    /// A snapshot message of the last rendered version; `nil` before the attach batch.
    ///
    /// - Returns: the encoded `snapshot` message of every row, or `nil` before the
    ///   attach batch.
    /// - Complexity: O(*n*) rows formatted.
    public func snapshotFrame() -> WebListFrame? {
        rendered.withLock { $0 }.map { WebListFrame($0.snapshotMessage(format: format)) }
    }
}
