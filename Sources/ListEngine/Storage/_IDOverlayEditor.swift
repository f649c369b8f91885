/// The id-index side of a bulk edit of a large index: the edits of an ``_IDEditor``
/// applied to the index's overlay, the main entries left as they are.
///
/// Each named id's main item is looked up before the pass. The pass finds the id's
/// overlay entry, if any; the id's stored item (``_IDEditor/oldItems``) is that entry's,
/// or else the main item. The id then gets the overlay entry its new item calls for:
/// - none, when the calls leave the stored item (an existing entry stays as it is);
/// - none, when the id is removed and has no main item, or its new item is its main
///   item, bit for bit (as when a change is undone);
/// - `.removed`, when it is removed and has a main item;
/// - `.changed` or `.added` with the new item, whether or not it has a main item.
@usableFromInline struct _IDOverlayEditor<Item: Hashable & DataSourceComparable>: _TreeEditor, Sendable {
    /// The edits, their stored items filled in by the pass.
    @usableFromInline var ids: _IDEditor<Item>
    /// Per edit: the main entries' item for its id.
    @usableFromInline let mainItems: [Item?]
    /// Whether `ids.oldItems` already holds `mainItems`: then an id without an overlay
    /// entry keeps its stored item as it is, instead of having it written again (which
    /// would copy the array the caller shares).
    @usableFromInline let storedItemsAreMainItems: Bool
    /// For the edits of the current leaf: the slot of the id's entry, or the complement
    /// (`~slot`) of where an absent id goes.
    @usableFromInline var slots: [Int] = []

    /// - Parameters:
    ///   - ids: the edits.
    ///   - mainItems: the main entries' item for each edit.
    ///   - storedItemsAreMainItems: whether `ids.oldItems` is `mainItems` already.
    @inlinable init(_ ids: _IDEditor<Item>, mainItems: [Item?], storedItemsAreMainItems: Bool = false) {
        self.ids = ids
        self.mainItems = mainItems
        self.storedItemsAreMainItems = storedItemsAreMainItems
    }

    /// What the pass writes for an edit.
    @usableFromInline enum _Outcome {
        /// The id's overlay entry, if it has one, stays.
        case keep
        /// The id has no overlay entry.
        case none
        case write(_OverlayEntry<Item>)
    }

    /// What edit `edit` leaves in the overlay, once its stored item is known.
    @inlinable func outcome(_ edit: Int) -> _Outcome {
        if ids.isUnchanged(edit) { return .keep }
        let hash = ids.hashes[edit]
        guard let new = ids.newItems[edit] else {
            return mainItems[edit].map { .write(_OverlayEntry(_IDEntry(hash: hash, item: $0), .removed)) } ?? .none
        }
        guard let main = mainItems[edit] else { return .write(_OverlayEntry(_IDEntry(hash: hash, item: new), .added)) }
        return _haveTheSameBits(main, new) ? .none : .write(_OverlayEntry(_IDEntry(hash: hash, item: new), .changed))
    }

    /// How many more ids the index holds after the pass than before.
    @inlinable var countChange: Int {
        var change = 0
        for edit in 0 ..< ids.editCount {
            change += (ids.newItems[edit] == nil ? 0 : 1) - (ids.oldItems[edit] == nil ? 0 : 1)
        }
        return change
    }

    @inlinable var editCount: Int { ids.editCount }

    @inlinable func edit(_ edit: Int, belongsAtOrAfter element: _OverlayEntry<Item>) -> Bool {
        ids.hashes[edit] >= element.entry.hash
    }

    @inlinable mutating func count(after edits: Range<Int>, in leaf: [_OverlayEntry<Item>], oldOffset: Int) -> Int? {
        var total = leaf.count
        var cursor = 0
        var previousHash: Int? = nil
        slots.removeAll(keepingCapacity: true)
        for edit in edits {
            let hash = ids.hashes[edit]
            // Two named ids with one hash in one leaf: left to the one-at-a-time path.
            if hash == previousHash { return nil }
            previousHash = hash
            cursor = _CountedBTree<_OverlayEntry<Item>>._partitioningIndex(of: leaf, from: cursor) { $0.entry.hash >= hash }
            var probe = cursor
            while probe < leaf.count && leaf[probe].entry.hash == hash && leaf[probe].entry.item.id != ids.ids[edit] { probe += 1 }
            if probe < leaf.count && leaf[probe].entry.hash == hash {
                ids.oldItems[edit] = leaf[probe].kind == .removed ? nil : leaf[probe].entry.item
                if case .none = outcome(edit) { total -= 1 }
                slots.append(probe)
                cursor = probe + 1
            } else {
                // An absent id whose hash starts this leaf: the run may begin in the leaf before.
                if cursor == 0 && oldOffset > 0 && !leaf.isEmpty && leaf[0].entry.hash == hash { return nil }
                if !storedItemsAreMainItems { ids.oldItems[edit] = mainItems[edit] }
                if case .write = outcome(edit) { total += 1 }
                slots.append(~probe)  // where it goes: after the run of its hash
                cursor = probe
            }
        }
        return total
    }

    @inlinable mutating func apply(
        _ edits: Range<Int>, to leaf: [_OverlayEntry<Item>], oldOffset: Int, newOffset: Int, into output: inout _LeafWriter<_OverlayEntry<Item>>
    ) -> Bool {
        var cursor = 0
        for (edit, slot) in zip(edits, slots) {
            let isFound = slot >= 0, position = isFound ? slot : ~slot
            output.append(contentsOf: leaf, cursor ..< position)
            cursor = isFound ? position + 1 : position
            switch outcome(edit) {
            case .keep: if isFound { output.append(leaf[position]) }
            case .none: break
            case .write(let entry): output.append(entry)
            }
        }
        output.append(contentsOf: leaf, cursor ..< leaf.count)
        return true
    }

    @inlinable mutating func keep(_ subtree: _CountedBTree<_OverlayEntry<Item>>._Node) -> Bool { true }

    @inlinable mutating func beginLaterPart() {}

    @inlinable mutating func join(
        _ later: _IDOverlayEditor, laterEdits: Range<Int>, emittedBefore: Int, lastBefore: _OverlayEntry<Item>?, firstAfter: _OverlayEntry<Item>?
    ) -> Bool {
        for edit in laterEdits { ids.oldItems[edit] = later.ids.oldItems[edit] }
        return true
    }
}

extension _IDIndex where Item: Hashable {
    /// The index after `edits`, whose stored items (``_IDEditor/oldItems``) the pass
    /// fills in; `nil` when the bulk path does not apply.
    ///
    /// An index of at least `overlayMinimum` main entries takes the edit into its
    /// overlay, and folds the overlay into the main entries when it is left holding more
    /// than one id in `overlayFraction` of them: the index is then copied once, on two
    /// threads. Otherwise (a smaller index, or an edit of more ids than that into an
    /// index without overlay) the main entries are edited, cut in two halves on two
    /// threads from `threshold` ids, and each leaf the ids fall into is copied.
    ///
    /// - Complexity: into the overlay, O(*k* log *n*) for *k* edits, plus O(*n*) when it
    ///   is folded; otherwise O(*k* log *n*) plus O(*l* · *b*) copies for the *l* leaves
    ///   of *b* entries the ids fall into.
    @inlinable func _editing(
        with edits: inout _IDEditor<Item>, concurrentFrom threshold: Int,
        overlayMinimum: Int = _Tuning.idOverlayMinimumEntries, overlayFraction: Int = _Tuning.idOverlayListFraction
    ) -> _IDIndex? {
        guard _takesIntoOverlay(edits, overlayMinimum: overlayMinimum, overlayFraction: overlayFraction) else {
            guard let edited = _folded.entries._editingConcurrently(with: &edits, from: threshold) else { return nil }
            var index = _IDIndex()
            index.entries = edited
            return index
        }
        guard let edited = _editingOverlay(with: &edits, concurrently: edits.editCount >= threshold) else { return nil }
        return edited.overlay.count <= entries.count / overlayFraction ? edited : edited._folded(concurrently: edited.count >= _Tuning.parallelBuildMinimumItems)
    }

    /// Whether ``_editing(with:concurrentFrom:overlayMinimum:overlayFraction:)`` writes
    /// `edits` into the overlay rather than into the main entries.
    ///
    /// - Complexity: O(1).
    @inlinable func _takesIntoOverlay(_ edits: _IDEditor<Item>, overlayMinimum: Int, overlayFraction: Int) -> Bool {
        entries.count >= overlayMinimum && (edits.editCount <= entries.count / overlayFraction || !overlay.isEmpty)
    }

    /// Whether ``_editing(with:concurrentFrom:overlayMinimum:overlayFraction:)`` would
    /// write `edits` into an overlay that is empty, and leave it unfolded (it then holds
    /// at most one entry per edit, within its bound): every stored item is then the main
    /// entries', and the overlay can be written later, from them
    /// (``_editingOverlay(with:concurrently:mainItems:)``).
    ///
    /// - Complexity: O(1).
    @inlinable func _takesIntoEmptyOverlay(
        _ edits: _IDEditor<Item>, overlayMinimum: Int = _Tuning.idOverlayMinimumEntries, overlayFraction: Int = _Tuning.idOverlayListFraction
    ) -> Bool {
        overlay.isEmpty && _takesIntoOverlay(edits, overlayMinimum: overlayMinimum, overlayFraction: overlayFraction)
    }

    /// The index after `edits`, written into its overlay.
    ///
    /// - Parameters:
    ///   - concurrently: whether to look the ids up in the main entries on two threads.
    ///   - storedItemsAreMainItems: whether the overlay is empty and `edits.oldItems`
    ///     already holds the main entries' item for each edit (``_mainItems(of:concurrently:)``),
    ///     which are then not looked up again.
    @inlinable func _editingOverlay(with edits: inout _IDEditor<Item>, concurrently: Bool, storedItemsAreMainItems: Bool = false) -> _IDIndex? {
        let known = storedItemsAreMainItems && overlay.isEmpty
        var editor = _IDOverlayEditor(edits, mainItems: known ? edits.oldItems : _mainItems(of: edits, concurrently: concurrently), storedItemsAreMainItems: known)
        var index = self
        if overlay.isEmpty {
            let all = 0 ..< edits.editCount
            guard let total = editor.count(after: all, in: [], oldOffset: 0) else { return nil }
            // The overlay's nodes have the main entries' capacities.
            let fanout = _CountedBTree<_OverlayEntry<Item>>._Fanout(leaf: entries.fanout.leaf, branch: entries.fanout.branch)
            var writer = _LeafWriter<_OverlayEntry<Item>>(total: total, capacity: fanout.leaf)
            guard editor.apply(all, to: [], oldOffset: 0, newOffset: 0, into: &writer) else { return nil }
            var fragments: [_CountedBTree<_OverlayEntry<Item>>._Fragment] = []
            writer.finish(into: &fragments)
            index.overlay = _CountedBTree<_OverlayEntry<Item>>._tree(stacking: fragments, fanout: fanout)
        } else {
            guard let edited = overlay._editing(with: &editor) else { return nil }
            index.overlay = edited
        }
        edits = editor.ids
        index.overlayCountChange += editor.countChange
        return index
    }

    /// The main entries' item for each of the edits' ids.
    ///
    /// - Parameter concurrently: whether to look up the earlier and later halves on two threads.
    /// - Complexity: O(*k* log *n*).
    @inlinable func _mainItems(of edits: _IDEditor<Item>, concurrently: Bool) -> [Item?] {
        let count = edits.editCount, cut = count / 2, index = self
        return _joinedConcurrently(
            { index._mainItems(0 ..< cut, of: edits) }, { index._mainItems(cut ..< count, of: edits) }, concurrently: concurrently, callerRunsFirstPart: true
        )
    }

    /// The main entries' item for each of `edits.ids[range]`, in order.
    ///
    /// The edits come by ascending hash, so several fall into one leaf: each id is looked
    /// for in the leaf the previous one was, from where that one was, while its hash is
    /// below the next leaf's first, and in the leaf a search from the root finds
    /// otherwise. In a leaf, the search starts where the hash would sit if the leaf's
    /// hashes were spread evenly between its first and the next leaf's first, as hashes
    /// are: both are read in the branch above the leaf, so the first read of the leaf is
    /// that place (see ``_firstIndex(ofHashAtLeast:in:from:near:)``).
    ///
    /// - Complexity: O(*k* log *n*), and about O(*k*) reads of leaves for evenly spread hashes.
    @inlinable func _mainItems(_ range: Range<Int>, of edits: _IDEditor<Item>) -> [Item?] {
        var items: [Item?] = []
        items.reserveCapacity(range.count)
        var place = _LeafPlace(), low = 0
        for edit in range {
            let hash = edits.hashes[edit], id = edits.ids[edit]
            if place.elements.isEmpty || hash >= place.upper {
                place = _leafPlace(holding: hash)
                low = 0
            }
            let leaf = place.elements
            low = Self._firstIndex(ofHashAtLeast: hash, in: leaf, from: low, near: place.guess(for: hash))
            var probe = low
            while probe < leaf.count && leaf[probe].hash == hash && leaf[probe].item.id != id { probe += 1 }
            if probe < leaf.count && leaf[probe].hash == hash {
                items.append(leaf[probe].item)
            } else if probe == leaf.count || (low == 0 && leaf.first?.hash == hash) {
                // The hash's run may go on in the next leaf or begin in the one before.
                items.append(_mainItem(id, hash: hash))
            } else {
                items.append(nil)
            }
        }
        return items
    }

    /// A leaf of the main entries, with the hashes that bound it, read in its parent.
    @usableFromInline struct _LeafPlace {
        /// The leaf's entries.
        @usableFromInline var elements: [_IDEntry<Item>] = []
        /// The leaf's first hash.
        @usableFromInline var lower = Int.min
        /// The next leaf's first hash, or `Int.max` after the last leaf.
        @usableFromInline var upper = Int.max

        @inlinable init() {}

        /// Where `hash` would sit in the leaf if its hashes were spread evenly from
        /// ``lower`` to ``upper``.
        ///
        /// - Complexity: O(1).
        @inlinable func guess(for hash: Int) -> Int {
            let span = Double(upper) - Double(lower)
            guard span > 0 else { return 0 }
            let fraction = Swift.min(1, Swift.max(0, (Double(hash) - Double(lower)) / span))
            return Swift.min(elements.count - 1, Int(fraction * Double(elements.count)))
        }
    }

    /// The leaf of the main entries whose hashes would hold `hash`, the last leaf whose
    /// first hash is not above it (the first leaf when none is), with that first hash and
    /// the next leaf's.
    ///
    /// - Complexity: O(log *n*).
    @inlinable func _leafPlace(holding hash: Int) -> _LeafPlace {
        var place = _LeafPlace()
        guard var node = entries.root else { return place }
        while !node.isLeaf {
            let after = _CountedBTree<_IDEntry<Item>>._partitioningIndex(of: node.childFirsts, from: 0) { $0.hash > hash }
            let child = Swift.max(after, 1) - 1
            if child + 1 < node.children.count { place.upper = node.childFirsts[child + 1].hash }
            place.lower = node.childFirsts[child].hash
            node = node.children[child]
        }
        place.elements = node.elements
        return place
    }

    /// How many entries ``_firstIndex(ofHashAtLeast:in:from:near:)`` walks from its guess
    /// before it searches the rest.
    @inlinable static var _walkLimit: Int { 16 }

    /// The first position from `low` on whose hash is at least `hash`, or `leaf.count`,
    /// found by walking from `guess` towards it.
    ///
    /// Near a good guess the walk reads a few neighbouring entries, which share cache
    /// lines, and which the processor reads ahead of the comparisons, as it cannot a
    /// search's reads, each of which depends on the one before. After
    /// ``_walkLimit`` entries, the rest of the way is searched
    /// (``_firstIndex(ofHashAtLeast:in:from:below:)``).
    ///
    /// - Parameter guess: any position; the closer, the fewer reads.
    /// - Complexity: O(log *b*) reads at worst, O(1) for a guess within a few entries.
    @inlinable static func _firstIndex(ofHashAtLeast hash: Int, in leaf: [_IDEntry<Item>], from low: Int, near guess: Int) -> Int {
        guard low < leaf.count else { return leaf.count }
        var position = Swift.min(Swift.max(guess, low), leaf.count - 1)
        if leaf[position].hash >= hash {
            // The answer is at `position` or before it.
            let stop = Swift.max(low, position - _walkLimit)
            while position > stop && leaf[position - 1].hash >= hash { position -= 1 }
            return position == stop && position > low ? _firstIndex(ofHashAtLeast: hash, in: leaf, from: low, below: position) : position
        }
        // The answer is after `position`.
        let stop = Swift.min(leaf.count, position + 1 + _walkLimit)
        position += 1
        while position < stop && leaf[position].hash < hash { position += 1 }
        return position == stop && position < leaf.count ? _firstIndex(ofHashAtLeast: hash, in: leaf, from: position, below: leaf.count) : position
    }

    /// The first position in `low ..< high` whose hash is at least `hash`, or `high`,
    /// where every hash from `high` on is at least `hash`.
    ///
    /// Each step reads the entry where the hash would be if the hashes between the ends
    /// of the range were evenly spread, then one a few places past it, so that the
    /// range shrinks to those few places when the guess is close, as it almost always is.
    ///
    /// - Complexity: O(log log *b*) reads for evenly spread hashes, O(log *b*) at worst.
    @inlinable static func _firstIndex(ofHashAtLeast hash: Int, in leaf: [_IDEntry<Item>], from low: Int, below high: Int) -> Int {
        var low = low, high = high  // the position is in low ... high
        let margin = 8
        while high - low > 2 * margin {
            let width = high - low
            defer {
                // A step that did not halve the range (hashes far from evenly spread) is
                // followed by a bisection, so the search stays O(log b).
                if high - low > width / 2 && high - low > 2 * margin {
                    let middle = low + (high - low) / 2
                    if leaf[middle].hash >= hash { high = middle } else { low = middle + 1 }
                }
            }
            let first = leaf[low].hash, last = leaf[high - 1].hash
            if hash <= first { return low }
            if hash > last { return high }
            // Hashes close together may be equal as doubles: then the middle.
            let span = Double(last) - Double(first)
            let fraction = span > 0 ? Swift.min(1, Swift.max(0, (Double(hash) - Double(first)) / span)) : 0.5
            let guess = low + Int(fraction * Double(high - 1 - low))
            if leaf[guess].hash >= hash {
                high = guess
                let before = Swift.max(low, guess - margin)
                if leaf[before].hash < hash { low = before + 1 }
            } else {
                low = guess + 1
                let after = Swift.min(high - 1, guess + margin)
                if leaf[after].hash >= hash { high = after }
            }
        }
        return _CountedBTree<_IDEntry<Item>>._partitioningIndex(of: leaf, in: low ..< high) { $0.hash >= hash }
    }
}
