/// An id's hash and the position of its item in the input.
@usableFromInline struct _HashSlot: Sendable {
    @usableFromInline var hash: Int
    @usableFromInline var index: Int

    @inlinable init(hash: Int, index: Int) {
        self.hash = hash
        self.index = index
    }
}

/// Sorts slots by hash, in `Int` order; slots with equal hashes keep their order.
///
/// Small inputs use the standard sort. Larger ones are first dealt into buckets by the
/// top bits of their hash and then finished by an insertion sort, which moves each slot
/// only within its bucket: O(*n*) for hashes spread as `Hasher`'s are. Should the
/// hashes crowd into few buckets (a type with a hand-written `hashValue`, say), the
/// insertion sort stops after a few moves per slot and a radix sort finishes in O(*n*).
/// All three are stable.
@inlinable func _sortByHash(_ slots: inout [_HashSlot]) {
    guard slots.count > 4_096 else {
        slots.sort { $0.hash < $1.hash }
        return
    }
    if !_sortByHashInBuckets(&slots) { _sortByHashInRadixPasses(&slots) }
}

/// The key whose unsigned order is the signed order of `hash` (the sign bit flipped).
@inlinable func _unsignedKey(_ hash: Int) -> UInt64 { UInt64(bitPattern: Int64(hash)) ^ (1 << 63) }

/// Deals the slots into about as many buckets as there are slots, by the top bits of
/// their hash, then sorts them by insertion. Returns `false` when that takes more than
/// eight moves per slot; the slots are then in some order in which equal hashes still
/// keep their original order.
///
/// - Complexity: O(*n*), with at most 8 *n* moves.
@inlinable func _sortByHashInBuckets(_ slots: inout [_HashSlot]) -> Bool {
    let count = slots.count
    guard count > 1 else { return true }
    let bits = Swift.min(16, Int.bitWidth - (count - 1).leadingZeroBitCount)
    let shift = UInt64(UInt64.bitWidth - bits)
    var offsets = [Int](repeating: 0, count: 1 << bits)
    var isSorted = true
    let dealt = [_HashSlot](unsafeUninitializedCapacity: count) { target, initialized in
        slots.withUnsafeBufferPointer { source in
            offsets.withUnsafeMutableBufferPointer { offsets in
                _deal(source, into: target, offsets: offsets) { Int(truncatingIfNeeded: _unsignedKey($0.hash) >> shift) }
            }
        }
        initialized = count
        // Moving only past larger hashes keeps equal hashes in order.
        var movesLeft = 8 * count
        for position in 1 ..< count {
            let slot = target[position]
            var place = position
            while place > 0 && target[place - 1].hash > slot.hash {
                target[place] = target[place - 1]
                place -= 1
            }
            target[place] = slot
            movesLeft -= position - place
            if movesLeft < 0 {
                isSorted = false
                break
            }
        }
    }
    slots = dealt
    return isSorted
}

/// Sorts slots by hash with a least-significant-digit radix sort: four stable passes
/// of 16 bits.
///
/// - Complexity: O(*n*).
@inlinable func _sortByHashInRadixPasses(_ slots: inout [_HashSlot]) {
    var buffer = [_HashSlot](repeating: _HashSlot(hash: 0, index: 0), count: slots.count)
    var offsets = [Int](repeating: 0, count: 1 << 16)
    for pass in 0 ..< 4 {
        let shift = UInt64(pass * 16)
        slots.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { target in
                offsets.withUnsafeMutableBufferPointer { offsets in
                    _deal(source, into: target, offsets: offsets) { Int(truncatingIfNeeded: _unsignedKey($0.hash) >> shift) & 0xFFFF }
                }
            }
        }
        swap(&slots, &buffer)
    }
}

/// Deals `source` into `target` (of the same count) by `bucket`, stably: the slots of
/// bucket 0 first, each bucket's slots in their order in `source`. `offsets` needs one
/// entry per bucket; it is overwritten.
///
/// - Complexity: O(*n* + *b*) for *n* slots and *b* buckets.
@inlinable func _deal(
    _ source: UnsafeBufferPointer<_HashSlot>, into target: UnsafeMutableBufferPointer<_HashSlot>, offsets: UnsafeMutableBufferPointer<Int>,
    bucket: (_HashSlot) -> Int
) {
    for index in offsets.indices { offsets[index] = 0 }
    for slot in source { offsets[bucket(slot)] += 1 }
    var start = 0
    for index in offsets.indices {
        let size = offsets[index]
        offsets[index] = start
        start += size
    }
    // `initialize`: the target may be uninitialized memory; a slot holds only integers.
    guard let base = target.baseAddress else { return }  // no slots
    for slot in source {
        let index = bucket(slot)
        base.advanced(by: offsets[index]).initialize(to: slot)
        offsets[index] += 1
    }
}
