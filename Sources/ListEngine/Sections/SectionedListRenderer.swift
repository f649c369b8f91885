/// A consumer of a ``SectionedListDataSource``'s batches: a sectioned table or
/// collection view adapter, a grouped terminal list, a web page of sections.
///
/// Attach one with ``SectionedListDataSource/attach(_:on:)``. Delivery is a flat
/// renderer's: an *attach batch* that inserts every current section and row, then every
/// later batch, in version order, each exactly once, on the queue it was attached on.
///
/// ```swift
/// final class SectionCounter: SectionedListRenderer {
///     func render(_ batch: SectionedChangeBatch<String, DataSourceItem<String>>) {
///         print("\(batch.new.sections.count) sections at version \(batch.version)")
///     }
/// }
/// ```
public protocol SectionedListRenderer<Section, Item>: AnyObject, Sendable {
    /// The section key type of the lists this renderer shows.
    associatedtype Section: Hashable & Comparable & Sendable
    /// The row type of the lists this renderer shows.
    associatedtype Item: Hashable & DataSourceComparable
    /// Applies one batch. Called serially, in version order, on the attach queue.
    ///
    /// - Parameter batch: the change from `batch.old` (what the renderer showed) to `batch.new`.
    func render(_ batch: SectionedChangeBatch<Section, Item>)
}

/// A sectioned renderer that lives on the main actor, such as a view model or a
/// sectioned table adapter in a Swift 6 app.
///
/// Attach one with ``SectionedListDataSource/attach(_:)``: batches are delivered on the
/// main queue and `render(_:)` runs on the main actor, with the delivery rules of
/// ``SectionedListRenderer``.
public protocol MainActorSectionedListRenderer<Section, Item>: AnyObject, Sendable {
    /// The section key type of the lists this renderer shows.
    associatedtype Section: Hashable & Comparable & Sendable
    /// The row type of the lists this renderer shows.
    associatedtype Item: Hashable & DataSourceComparable
    /// Applies one batch, on the main actor, in version order.
    ///
    /// - Parameter batch: the change from `batch.old` to `batch.new`.
    @MainActor func render(_ batch: SectionedChangeBatch<Section, Item>)
}
