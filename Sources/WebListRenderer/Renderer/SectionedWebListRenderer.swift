/// A renderer that turns a sectioned list's batches into wire messages for one browser.
///
/// Attach it to a `SectionedListDataSource`. It works as ``WebListRenderer`` does, with
/// sectioned messages: the attach batch becomes a `snapshot` message whose `sections`
/// hold each section's key, title and rows; every later batch becomes one `batch`
/// message marked `"sectioned":true`, whose steps insert and remove sections and insert,
/// remove, move and reload rows at index paths. A batch that does not continue from the
/// last rendered version becomes a snapshot, and versions keep increasing when the
/// renderer is moved to another list (see ``WebListRenderer``).
///
/// ```swift
/// let renderer = SectionedWebListRenderer(format: SectionedWebListFormat<LeaderboardTier, Player>(
///     rows: WebListFormat { player in "<span class=\"name\">\(player.name)</span>" },
///     key: { tier in "\(tier)" },
///     title: { tier in tier.name }
/// )) { frame in
///     connection.send(frame.json)
/// }
/// players.attach(renderer)
/// ```
///
/// To serve many browsers from one sectioned list, use ``SectionedWebListHub``.
public final class SectionedWebListRenderer<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: SectionedListRenderer {
    /// How sections and items become wire sections and rows.
    public var format: SectionedWebListFormat<Section, Item> { core.format }
    private let core: _RenderCore<SectionedWebListFormat<Section, Item>>

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - format: how sections and items become wire sections and rows.
    ///   - send: receives each encoded message, on the queue the renderer is attached on,
    ///     in order.
    public init(format: SectionedWebListFormat<Section, Item>, send: @escaping @Sendable (WebListFrame) -> Void) {
        core = _RenderCore(format: format, send: send)
    }

    /// Encodes `batch` and passes it to `send`: a sectioned snapshot message for the first
    /// batch (the attach batch) or a batch that does not continue from the last one, a
    /// sectioned batch message otherwise.
    ///
    /// - Parameter batch: the batch the data source delivers, from `batch.old` (what the
    ///   renderer rendered last) to `batch.new`.
    /// - Complexity: O(*c* log *n* + *c* log *s*) plus formatting the changed rows, for
    ///   *c* changes, *n* rows and *s* sections; O(*n* + *s* log *n*) for a snapshot.
    public func render(_ batch: SectionedChangeBatch<Section, Item>) {
        core.render(batch)
    }

    /// The wire version of the last rendered batch; `nil` before the attach batch.
    ///
    /// - Complexity: O(1).
    public var version: Int? { core.version }

    /// A sectioned snapshot message of the last rendered version; `nil` before the
    /// attach batch.
    ///
    /// - Returns: the encoded `snapshot` message of every section and row, or `nil`
    ///   before the attach batch.
    /// - Complexity: O(*n* + *s* log *n*) for *n* rows and *s* sections.
    public func snapshotFrame() -> WebListFrame? {
        core.snapshotFrame()
    }
}
