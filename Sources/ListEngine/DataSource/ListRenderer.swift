/// A consumer of a ``ListDataSource``'s change batches: a table view adapter, a terminal
/// screen, a web socket.
///
/// Attach one with ``ListDataSource/attach(_:on:)``. It first receives an *attach
/// batch* that inserts every current row (from the empty version 0), then every later
/// batch, in version order, each exactly once, on the queue it was attached on.
/// <doc:ThreadingAndMemory> describes the queues, and <doc:GettingStarted> shows a
/// renderer that keeps its rows.
///
/// ```swift
/// final class RowCounter: ListRenderer {
///     func render(_ batch: ChangeBatch<DataSourceItem<String>>) {
///         print("now \(batch.new.count) rows at version \(batch.version)")
///     }
/// }
/// ```
public protocol ListRenderer<Item>: AnyObject, Sendable {
    /// The row type of the lists this renderer shows.
    associatedtype Item: Hashable & DataSourceComparable
    /// Applies one batch. Called serially, in version order, on the attach queue.
    ///
    /// - Parameter batch: the change from `batch.old` (what the renderer showed) to `batch.new`.
    func render(_ batch: ChangeBatch<Item>)
}

/// Identifies one attachment of a renderer, for ``ListDataSource/detach(_:)``.
///
/// Tokens are unique in the process: a token of one data source never equals a token of
/// another, so tokens of several lists can share a set, and a data source ignores a
/// token it did not issue.
public struct RendererToken: Hashable, Sendable {
    @usableFromInline let rawValue: Int

    @inlinable init(rawValue: Int) {
        self.rawValue = rawValue
    }
}
