/// The batch being rendered on the current thread, if any: what reads of a data source
/// from inside ``ListRenderer/render(_:)`` return.
///
/// Reads from elsewhere see one snapshot shared by everyone (the newest version every
/// renderer has rendered), which cannot match each of several renderers at different
/// versions, nor a renderer in the middle of a batch. Reads from inside `render(_:)`
/// therefore see that batch's `new` snapshot exactly. The binding is a task-local value,
/// which outside a task is kept per thread, and lasts for the one call of `render(_:)`.
@usableFromInline enum _RenderingContext {
    /// The snapshot a renderer is applying, and the data source it came from.
    @usableFromInline struct Rendering: Sendable {
        @usableFromInline let source: ObjectIdentifier
        @usableFromInline let snapshot: any Sendable

        @inlinable init(source: ObjectIdentifier, snapshot: any Sendable) {
            self.source = source
            self.snapshot = snapshot
        }
    }

    /// The current binding; a ``TaskLocal`` spelled out, so that inlinable code can use it.
    @usableFromInline static let current = TaskLocal<Rendering?>(wrappedValue: nil)
}
