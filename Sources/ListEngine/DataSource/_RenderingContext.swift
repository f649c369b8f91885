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
    /// The snapshot a renderer is applying, and the data source it came from.
    @usableFromInline final class Rendering<Item: Hashable & DataSourceComparable> {
        @usableFromInline let source: ObjectIdentifier
        @usableFromInline let snapshot: ListSnapshot<Item>

        @inlinable init(source: ObjectIdentifier, snapshot: ListSnapshot<Item>) {
            self.source = source
            self.snapshot = snapshot
        }
    }

    /// The thread-local slot holding the current `Rendering`, unretained (the caller of
    /// ``rendering(_:_:)`` keeps it alive while it is bound).
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// Runs `body` with `snapshot` bound as what `source`'s reads return on this thread.
    @usableFromInline static func rendering<Item>(_ snapshot: ListSnapshot<Item>, of source: ObjectIdentifier, _ body: () -> Void) {
        let rendering = Rendering(source: source, snapshot: snapshot)
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(rendering).toOpaque())
        defer { pthread_setspecific(key, previous) }
        withExtendedLifetime(rendering, body)
    }

    /// The snapshot bound for `source` on this thread, if any.
    ///
    /// - Complexity: O(1): one thread-local read, and when one is bound, one comparison.
    @usableFromInline static func snapshot<Item>(of source: ObjectIdentifier, as type: Item.Type) -> ListSnapshot<Item>? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        // Only `rendering(_:of:_:)` binds the slot, always to a live `Rendering`.
        let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
        guard let rendering = object as? Rendering<Item>, rendering.source == source else { return nil }
        return rendering.snapshot
    }
}
