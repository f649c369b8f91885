#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The batch being rendered on the current thread, if any: what reads of a data source
/// from inside ``ListRenderer/render(_:)`` return.
///
/// Reads from elsewhere see one snapshot shared by everyone (the newest version every
/// renderer has rendered), which cannot match each of several renderers at different
/// versions, nor a renderer in the middle of a batch. Reads from inside `render(_:)`
/// therefore see that batch's `new` snapshot exactly.
///
/// The binding is thread-local and lasts for the one synchronous call of `render(_:)`.
/// It is deliberately not a task-local value: a task that `render(_:)` starts would
/// inherit a task-local binding and keep reading that batch long after it was rendered.
@usableFromInline enum _RenderingContext {
    /// What the thread-local slot points to while a batch is rendered: the data source,
    /// and where the batch's `new` snapshot is.
    ///
    /// Not generic, so that a read can check the data source before it knows anything
    /// of the snapshot's type: a data source's snapshots are all of its one `Item` type,
    /// so once the data source matches, the snapshot is a `ListSnapshot` of the reader's
    /// `Item`.
    @usableFromInline struct Binding {
        @usableFromInline let source: ObjectIdentifier
        @usableFromInline let snapshot: UnsafeRawPointer

        @inlinable init(source: ObjectIdentifier, snapshot: UnsafeRawPointer) {
            self.source = source
            self.snapshot = snapshot
        }
    }

    /// The thread-local slot holding the current ``Binding`` (on the stack of
    /// ``rendering(_:of:_:)``, which keeps it alive while it is bound).
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// Runs `body` with `snapshot` bound as what `source`'s reads return on this thread.
    ///
    /// - Complexity: O(1) besides `body`; it allocates nothing.
    @inlinable static func rendering<Item>(_ snapshot: ListSnapshot<Item>, of source: ObjectIdentifier, _ body: () -> Void) {
        withUnsafePointer(to: snapshot) { snapshot in
            withUnsafePointer(to: Binding(source: source, snapshot: UnsafeRawPointer(snapshot))) { binding in
                let previous = pthread_getspecific(key)
                pthread_setspecific(key, binding)
                defer { pthread_setspecific(key, previous) }
                body()
            }
        }
    }

    /// The snapshot bound for `source` on this thread, if any.
    ///
    /// - Complexity: O(1): one thread-local read, and when one is bound, one comparison.
    @usableFromInline static func snapshot<Item>(of source: ObjectIdentifier, as type: Item.Type) -> ListSnapshot<Item>? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        // Only `rendering(_:of:_:)` binds the slot, always to a live `Binding`.
        let binding = pointer.load(as: Binding.self)
        guard binding.source == source else { return nil }
        return binding.snapshot.assumingMemoryBound(to: ListSnapshot<Item>.self).pointee
    }
}
