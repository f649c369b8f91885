import Dispatch
import Synchronization

/// Which renderers receive batches, and which snapshot reads outside a renderer see.
///
/// Reads (`snapshot`, `count`, subscripts) made outside `render(_:)` see the newest
/// version that every renderer has finished rendering, where a renderer counts from the
/// moment its attach batch is sent, as if it had rendered that batch already; with no
/// renderer, the newest computed version. An attach batch holds the newest computed
/// version, so attaching never takes reads back to an older version. (Reads inside
/// `render(_:)` see that batch's snapshot; see `_RenderingContext`.)
@usableFromInline struct _DeliveryLedger<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline let box: _RendererBox<Item>
        @usableFromInline var isReceiving = false
        /// The snapshot of the last batch rendered, or of the attach batch once it is sent.
        @usableFromInline var shown: ListSnapshot<Item>? {
            didSet { shownVersion = shown?.version }
        }
        /// The version of ``shown``: what ``_DeliveryLedger/updateDelivered()`` compares,
        /// an `Int` read in place where reading `shown` would copy the entry.
        @usableFromInline var shownVersion: Int? = nil

        @inlinable init(box: _RendererBox<Item>) {
            self.box = box
        }
    }

    /// The attached renderers, in the order they were attached.
    ///
    /// An array searched by token, not a dictionary: a list has a renderer or two, and
    /// every batch looks one up when it is rendered.
    @usableFromInline var entries: [Entry] = []
    /// The boxes of the entries that receive batches, in `entries`' order: what every
    /// computed batch is sent to, kept so that sending one allocates nothing.
    @usableFromInline var receivingBoxes: [_RendererBox<Item>] = []
    @usableFromInline var latest: ListSnapshot<Item>
    /// The entry whose ``Entry/shown`` is the delivered snapshot, or `nil` when it is
    /// ``latest``: kept instead of a copy of that snapshot, which every batch rendered
    /// would otherwise make and destroy.
    @usableFromInline var deliveredSlot: Int? = nil
    /// The queues of detached renderer objects that may still be running what was sent
    /// to them (a render in progress, say), until they have run it.
    @usableFromInline var draining: [ObjectIdentifier: DispatchQueue] = [:]

    @inlinable init(initial: ListSnapshot<Item>) {
        latest = initial
    }

    /// Registers a renderer, which receives nothing until `startReceiving`. Returns its
    /// box, and whether it is new: a renderer object that is already attached keeps its
    /// first registration. A new box for a renderer object that was detached from this
    /// data source comes with the queue of that attachment while it is still draining:
    /// the new queue must not start before it is done.
    @inlinable mutating func register(
        renderer: ObjectIdentifier?, queue: @autoclosure () -> DispatchQueue,
        deliver: @escaping @Sendable (ChangeBatch<Item>) -> Void, end: (@Sendable () -> Void)? = nil
    ) -> (box: _RendererBox<Item>, isNew: Bool, draining: DispatchQueue?) {
        if let renderer, let existing = entries.first(where: { $0.box.renderer == renderer }) {
            return (existing.box, false, nil)
        }
        let token = RendererToken(rawValue: _rendererTokens.add(1, ordering: .relaxed).newValue)
        let box = _RendererBox(token: token, renderer: renderer, queue: queue(), deliver: deliver, end: end)
        entries.append(Entry(box: box))
        return (box, true, renderer.flatMap { draining[$0] })
    }

    /// Called on a detached renderer's queue once it has run everything sent to it.
    @inlinable mutating func finishedDraining(_ renderer: ObjectIdentifier, queue: DispatchQueue) {
        if draining[renderer] === queue { draining[renderer] = nil }
    }

    /// Called on the diff queue when the attach batch, which leads to `attached`, is
    /// sent. Returns `false` if the renderer was detached in the meantime.
    @inlinable mutating func startReceiving(_ token: RendererToken, attached: ListSnapshot<Item>) -> Bool {
        guard let slot = slot(of: token) else { return false }
        entries[slot].isReceiving = true
        entries[slot].shown = attached
        receivingBoxes = entries.filter { $0.isReceiving }.map { $0.box }
        updateDelivered()
        return true
    }

    /// Removes a renderer. Returns its box, or `nil` if it was not attached. A renderer
    /// object's queue counts as draining until ``finishedDraining(_:queue:)``.
    @inlinable mutating func unregister(_ token: RendererToken) -> _RendererBox<Item>? {
        guard let slot = slot(of: token) else { return nil }
        let entry = entries.remove(at: slot)
        if entry.isReceiving { receivingBoxes.removeAll { $0 === entry.box } }
        if let renderer = entry.box.renderer { draining[renderer] = entry.box.queue }
        updateDelivered()
        return entry.box
    }

    /// Records a newly computed version; returns the renderers to send its batch to.
    @inlinable mutating func computed(_ snapshot: ListSnapshot<Item>) -> [_RendererBox<Item>] {
        latest = snapshot
        updateDelivered()
        return receivingBoxes
    }

    /// Records that a renderer finished rendering the batch that leads to `snapshot`.
    @inlinable mutating func rendered(_ token: RendererToken, _ snapshot: ListSnapshot<Item>) {
        guard let slot = slot(of: token) else { return }
        entries[slot].shown = snapshot
        updateDelivered()
    }

    /// Where the entry of `token` is in ``entries``.
    ///
    /// - Complexity: O(*r*) for *r* attached renderers.
    @inlinable func slot(of token: RendererToken) -> Int? {
        for slot in entries.indices where entries[slot].box.token == token { return slot }
        return nil
    }

    /// The snapshot reads outside a renderer see: the oldest one a renderer shows, or
    /// ``latest`` without one.
    ///
    /// - Complexity: O(1).
    @inlinable var delivered: ListSnapshot<Item> {
        deliveredSlot.flatMap { entries[$0].shown } ?? latest
    }

    /// Points ``deliveredSlot`` at the entry that shows the oldest snapshot, or at none.
    ///
    /// A loop rather than `compactMap` and `min`: this runs twice for every batch, and an
    /// array of snapshots, a generic type, takes a run-time metadata lookup to allocate.
    /// The versions are compared as `Int`s in place, and no snapshot is copied.
    ///
    /// - Complexity: O(*r*) for *r* attached renderers.
    @inlinable mutating func updateDelivered() {
        var slowest: (slot: Int, version: Int)? = nil
        for slot in entries.indices {
            guard let version = entries[slot].shownVersion, version < slowest?.version ?? .max else { continue }
            slowest = (slot, version)
        }
        deliveredSlot = slowest?.slot
    }
}
