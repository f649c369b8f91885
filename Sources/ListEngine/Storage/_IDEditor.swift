/// The id-index side of ``_ListStorage/_editing(_:)``: the last call for each named id,
/// sorted by hash, applied to the index's entries.
@usableFromInline struct _IDEditor<Item: Hashable & DataSourceComparable>: _TreeEditor, Sendable {
    /// Per owner, by ascending hash: the id's hash, the id, and its item after the
    /// calls (`nil` when removed).
    @usableFromInline var hashes: [Int] = []
    @usableFromInline var ids: [Item.ID] = []
    @usableFromInline var newItems: [Item?] = []
    /// Per owner, filled by the pass: the item stored before the calls.
    @usableFromInline var oldItems: [Item?] = []
    /// Per owner: whether an earlier call of the run (one the last call overrides)
    /// removed the id or gave it another item. Such an id is placed anew even when its
    /// final item equals the stored one: one at a time, it left its place in between.
    @usableFromInline var isRewritten: [Bool] = []
    /// For the edits of the current leaf: the slot of the id's entry, or the complement
    /// (`~slot`) of where an absent id goes.
    @usableFromInline var slots: [Int] = []

    /// Per named id of the run, in call order: its hash.
    @usableFromInline var callHashes: [Int] = []

    /// Reduces `run` to one edit per id, the last call for it winning.
    ///
    /// - Parameter earlier: the reduction of calls that `run` begins with (before late
    ///   calls joined it), whose ids' hashes are taken instead of computed again.
    @inlinable init(_ run: _EditRun<Item>, extending earlier: _IDEditor? = nil) {
        var callIDs: [Item.ID] = [], callItems: [Item?] = []
        callIDs.reserveCapacity(run.count)
        callItems.reserveCapacity(run.count)
        run.forEachCall { call in
            switch call {
            case .add(let items):
                for item in items {
                    callIDs.append(item.id)
                    callItems.append(item)
                }
            case .remove(let removed):
                for id in removed {
                    callIDs.append(id)
                    callItems.append(nil)
                }
            }
        }
        let known = earlier?.callHashes ?? []
        callHashes.reserveCapacity(callIDs.count)
        callHashes.append(contentsOf: known.prefix(callIDs.count))
        Self._appendHashes(of: callIDs, from: callHashes.count, to: &callHashes)
        var slots: [_HashSlot] = []
        slots.reserveCapacity(callIDs.count)
        for index in callIDs.indices { slots.append(_HashSlot(hash: callHashes[index], index: index)) }
        // Equal hashes keep call order, so the last call for an id comes last in its run.
        _sortByHash(&slots)
        hashes.reserveCapacity(slots.count)
        ids.reserveCapacity(slots.count)
        newItems.reserveCapacity(slots.count)
        isRewritten.reserveCapacity(slots.count)
        var position = 0
        while position < slots.count {
            var end = position + 1
            while end < slots.count && slots[end].hash == slots[position].hash { end += 1 }
            if end == position + 1 {
                // The only call with this hash: its id's edit is that call.
                let call = slots[position].index
                hashes.append(slots[position].hash)
                ids.append(callIDs[call])
                newItems.append(callItems[call])
                isRewritten.append(false)
                position = end
                continue
            }
            for candidate in position ..< end {
                let id = callIDs[slots[candidate].index]
                // Skip a call that a later call for the same id overrides.
                if (candidate + 1 ..< end).contains(where: { callIDs[slots[$0].index] == id }) { continue }
                let final = Self._finalItem(of: id, lastCall: candidate, from: position, slots, callIDs, callItems)
                isRewritten.append((position ..< candidate).contains { callIDs[slots[$0].index] == id && !_isSameContent(callItems[slots[$0].index], final) })
                hashes.append(slots[candidate].hash)
                ids.append(id)
                newItems.append(final)
            }
            position = end
        }
        oldItems = [Item?](repeating: nil, count: hashes.count)
    }

    /// Appends the hashes of `ids[start...]` to `hashes`, in order: from `threshold` ids,
    /// each half on its own thread.
    ///
    /// - Complexity: O(*k*) hashes for *k* ids.
    @inlinable static func _appendHashes(
        of ids: [Item.ID], from start: Int, to hashes: inout [Int], concurrentFrom threshold: Int = _Tuning.parallelHashMinimumIDs
    ) {
        guard ids.count - start >= Swift.max(threshold, 2) else {
            for index in start ..< ids.count { hashes.append(ids[index].hashValue) }
            return
        }
        let cut = start + (ids.count - start) / 2
        hashes.append(contentsOf: _joinedConcurrently({ ids[start ..< cut].map(\.hashValue) }, { ids[cut...].map(\.hashValue) }, callerRunsFirstPart: true))
    }

    /// The item an id is left with by its calls in `slots[first ... lastCall]` (those
    /// naming other ids are skipped), applied one at a time, when it is stored with an
    /// item unequal to them or not at all; `nil` when its last call removes it.
    ///
    /// An add of an item equal to the one the id holds changes nothing, so of a run of
    /// equal items the first stays: the item is the first of the calls' trailing run of
    /// items equal to the last one. (A stored item equal to that run stays instead; the
    /// id pass finds that, see ``isUnchanged(_:)``.)
    ///
    /// - Complexity: O(*c*) for the *c* calls in `slots[first ... lastCall]`.
    @inlinable static func _finalItem(
        of id: Item.ID, lastCall: Int, from first: Int, _ slots: [_HashSlot], _ callIDs: [Item.ID], _ callItems: [Item?]
    ) -> Item? {
        guard let last = callItems[slots[lastCall].index] else { return nil }
        var final = last
        var candidate = lastCall
        while candidate > first {
            candidate -= 1
            guard callIDs[slots[candidate].index] == id else { continue }
            guard let earlier = callItems[slots[candidate].index], earlier.isContentEqual(to: last) else { break }
            final = earlier
        }
        return final
    }

    @inlinable var editCount: Int { hashes.count }

    /// Whether the stored item of `edit`'s id equals its item after the calls, and no
    /// earlier call of the run named it differently: then the calls change nothing and
    /// the stored item stays, in the index and in the rows. Known once the pass has
    /// found the stored item (``count(after:in:oldOffset:)``).
    @inlinable func isUnchanged(_ edit: Int) -> Bool {
        guard let old = oldItems[edit], let new = newItems[edit] else { return false }
        return old.isContentEqual(to: new) && !isRewritten[edit]
    }

    @inlinable func edit(_ edit: Int, belongsAtOrAfter element: _IDEntry<Item>) -> Bool {
        hashes[edit] >= element.hash
    }

    @inlinable mutating func count(after edits: Range<Int>, in leaf: [_IDEntry<Item>], oldOffset: Int) -> Int? {
        var total = leaf.count
        var cursor = 0
        var previousHash: Int? = nil
        slots.removeAll(keepingCapacity: true)
        for edit in edits {
            let hash = hashes[edit]
            // Two named ids with one hash in one leaf: rare enough to leave to the
            // one-at-a-time path.
            if hash == previousHash { return nil }
            previousHash = hash
            cursor = _CountedBTree<_IDEntry<Item>>._partitioningIndex(of: leaf, from: cursor) { $0.hash >= hash }
            var probe = cursor
            while probe < leaf.count && leaf[probe].hash == hash && leaf[probe].item.id != ids[edit] { probe += 1 }
            if probe < leaf.count && leaf[probe].hash == hash {
                oldItems[edit] = leaf[probe].item
                if newItems[edit] == nil { total -= 1 }
                slots.append(probe)
                cursor = probe + 1
            } else {
                // An absent id whose hash starts this leaf: the run may begin in the leaf before.
                if cursor == 0 && oldOffset > 0 && !leaf.isEmpty && leaf[0].hash == hash { return nil }
                if newItems[edit] != nil { total += 1 }
                slots.append(~probe)  // where it goes: after the run of its hash
                cursor = probe
            }
        }
        return total
    }

    @inlinable mutating func apply(_ edits: Range<Int>, to leaf: [_IDEntry<Item>], oldOffset: Int, newOffset: Int, into output: inout _LeafWriter<_IDEntry<Item>>) -> Bool {
        var cursor = 0
        for (edit, slot) in zip(edits, slots) {
            let isFound = slot >= 0, position = isFound ? slot : ~slot
            output.append(contentsOf: leaf, cursor ..< position)
            cursor = position
            if isFound { cursor += 1 }
            guard let item = newItems[edit] else { continue }
            output.append(isUnchanged(edit) ? leaf[position] : _IDEntry(hash: hashes[edit], item: item))
        }
        output.append(contentsOf: leaf, cursor ..< leaf.count)
        return true
    }

    @inlinable mutating func keep(_ subtree: _CountedBTree<_IDEntry<Item>>._Node) -> Bool { true }

    @inlinable mutating func beginLaterPart() {}

    @inlinable mutating func join(
        _ later: _IDEditor, laterEdits: Range<Int>, emittedBefore: Int, lastBefore: _IDEntry<Item>?, firstAfter: _IDEntry<Item>?
    ) -> Bool {
        for edit in laterEdits { oldItems[edit] = later.oldItems[edit] }
        return true
    }
}
