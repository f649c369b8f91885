/// A renderer whose state lives on the main actor: a table or collection view adapter,
/// a view model a UI reads.
///
/// A class that keeps rows for a user interface is usually `@MainActor`. Such a class
/// cannot conform to ``ListRenderer``, whose `render(_:)` may be called on any queue;
/// it conforms to this protocol instead, and ``ListDataSource/attach(_:)`` delivers its
/// batches on the main queue, where it runs `render(_:)` on the main actor. Everything
/// ``ListRenderer`` promises holds: an attach batch first, then every later batch in
/// version order, each exactly once; a slow main thread delays no other renderer and
/// never the diff queue. Reads of the data source inside `render(_:)` show exactly the
/// batch being rendered.
///
/// The attach is the only thing to remember: main-queue delivery works in an app's run
/// loop and in programs that call `dispatchMain()`, and the main actor's state needs no
/// lock.
///
/// ```swift
/// @MainActor final class MessageTable: MainActorListRenderer {
///     private(set) var rows: [Message] = []
///
///     func render(_ batch: ChangeBatch<Message>) {
///         batch.apply(to: &rows)       // or drive a table view with batch.steps
///     }
/// }
///
/// let table = MessageTable()
/// let token = inbox.attach(table)      // from any thread
/// ```
@MainActor
public protocol MainActorListRenderer<Item>: AnyObject, Sendable {
    /// The row type of the lists this renderer shows.
    associatedtype Item: Hashable & DataSourceComparable
    /// Applies one batch, on the main actor, in version order.
    ///
    /// - Parameter batch: the change from `batch.old` (what the renderer showed) to `batch.new`.
    func render(_ batch: ChangeBatch<Item>)
}
