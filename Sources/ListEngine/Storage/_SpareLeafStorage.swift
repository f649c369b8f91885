/// The shelves of spare leaf storage, one per element type, shared by every tree.
@usableFromInline enum _SpareLeafStorage {
    /// The shelves by element type; each shelf is itself thread-safe.
    @usableFromInline static let shelves = LockedState<[ObjectIdentifier: any AnyObject & Sendable]>([:])

    /// The shelf for `Element`, made on first use.
    ///
    /// - Complexity: O(1) expected, under one lock.
    @inlinable static func shelf<Element>(of _: Element.Type) -> _SpareLeafShelf<Element> {
        let key = ObjectIdentifier(Element.self)
        let shelf = shelves.withLock { shelves -> any AnyObject & Sendable in
            if let shelf = shelves[key] { return shelf }
            let shelf = _SpareLeafShelf<Element>()
            shelves[key] = shelf
            return shelf
        }
        // Keyed by the element type, so the shelf found is one made for `Element`.
        return unsafeDowncast(shelf, to: _SpareLeafShelf<Element>.self)
    }
}
