/// Writes the elements of one rebuilt leaf straight into the leaves that will hold them:
/// one leaf when they fit, otherwise as many even leaves of at least half capacity as it
/// takes, so that an overflowing leaf is split without copying its elements twice.
///
/// Each leaf's storage is allocated for the elements it receives and one more, not for
/// the leaf capacity. A rebuilt leaf belongs to a new snapshot that the published one is
/// replaced by, so its next change copies it anyway (and a uniquely held leaf grows to
/// the capacity on its first insertion past that). The one more lets the storage of a
/// freed leaf take a copy of a leaf of the same size made to insert a row (see
/// ``_SpareLeafShelf``). Leaves split here hold about half the capacity, so storage
/// sized to the capacity would leave much of every rebuilt leaf unused: sizing it to the
/// rows lowers peak memory and makes bulk edits allocate and touch less (figures in
/// `Benchmarks/README.md`).
@usableFromInline struct _LeafWriter<Element> {
    /// The leaves filled so far (only when the elements do not fit in one).
    @usableFromInline var filled: [[Element]] = []
    /// The leaf being filled.
    @usableFromInline var current: [Element] = []
    /// The sizes of the leaves when the elements do not fit in one; otherwise empty.
    @usableFromInline let sizes: [Int]
    /// How many elements the current leaf takes before the next one starts.
    @usableFromInline var currentSize: Int
    /// How many of `sizes` are `sizes[0]` (the rest are one smaller).
    @usableFromInline let largeCount: Int
    /// The number of elements appended so far.
    @usableFromInline private(set) var count = 0

    /// A writer for `total` elements in leaves of `capacity`.
    @inlinable init(total: Int, capacity: Int) {
        sizes = total <= capacity ? [] : _CountedBTree<Element>._evenSizes(total: total, target: capacity, capacity: capacity)
        currentSize = sizes.count > 1 ? sizes[0] : .max
        let sizes = sizes
        largeCount = sizes.firstIndex { $0 != sizes[0] } ?? sizes.count
        current.reserveCapacity((sizes.first ?? total) + 1)
    }

    @inlinable mutating func append(_ element: Element) {
        current.append(element)
        count += 1
        if current.count == currentSize { _startNextLeaf() }
    }

    /// Appends `source[range]`, a block per leaf it spans rather than an append per
    /// element.
    @inlinable mutating func append(contentsOf source: [Element], _ range: Range<Int>) {
        var start = range.lowerBound
        while start < range.upperBound {
            let room = currentSize == .max ? range.upperBound - start : currentSize - current.count
            let end = Swift.min(range.upperBound, start + room)
            current._append(copiesOf: source, start ..< end)
            count += end - start
            start = end
            if current.count == currentSize { _startNextLeaf() }
        }
    }

    @inlinable mutating func _startNextLeaf() {
        filled.append(current)
        current = []
        current.reserveCapacity(filled.count < sizes.count ? sizes[filled.count] + 1 : 0)
        // The last leaf takes whatever is left.
        currentSize = filled.count + 1 < sizes.count ? sizes[filled.count] : .max
    }

    /// The element appended `offset`-th.
    @inlinable subscript(offset: Int) -> Element {
        guard let large = sizes.first, let small = sizes.last else { return current[offset] }
        // `_evenSizes`: the first `largeCount` leaves hold `large`, the rest `small`.
        let leaf: Int, slot: Int
        if offset < largeCount * large {
            (leaf, slot) = offset.quotientAndRemainder(dividingBy: large)
        } else {
            let (rest, remainder) = (offset - largeCount * large).quotientAndRemainder(dividingBy: small)
            (leaf, slot) = (largeCount + rest, remainder)
        }
        return leaf < filled.count ? filled[leaf][slot] : current[slot]
    }

    /// Appends the leaves written to `fragments`, as new fragments.
    @inlinable consuming func finish(into fragments: inout [_CountedBTree<Element>._Fragment]) {
        func append(_ leaf: [Element]) {
            fragments.append(_CountedBTree<Element>._Fragment(node: .init(leaf: leaf), count: leaf.count, first: leaf[0], isNew: true))
        }
        // The leaves filled before the current one (none in the usual case of one leaf,
        // which so allocates no list of leaves).
        for leaf in filled { append(leaf) }
        if !current.isEmpty { append(current) }
    }
}
