/// A binary indexed tree of counts over the integer keys it was built with
/// (Fenwick, "A new data structure for cumulative frequency tables", 1994).
@usableFromInline struct _FenwickTree {
    /// The keys, ascending and distinct; positions in it are the tree's coordinates.
    @usableFromInline let keys: [Int]
    @usableFromInline var tree: [Int]

    /// Creates an all-zero tree over `keys` (any order, duplicates allowed).
    @inlinable init<S: Sequence>(keys: S) where S.Element == Int {
        var sortedKeys = Array(Set(keys))
        sortedKeys.sort()
        self.keys = sortedKeys
        tree = [Int](repeating: 0, count: sortedKeys.count + 1)
    }

    /// Adds `delta` at `key`, which must be one of the tree's keys.
    ///
    /// - Complexity: O(log *k*).
    @inlinable mutating func add(_ delta: Int, at key: Int) {
        var index = keys._countLess(than: key) + 1
        precondition(index <= keys.count && keys[index - 1] == key, "key \(key) is not in the tree")
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// The sum of the counts at keys below `key` (`key` need not be a tree key).
    ///
    /// - Complexity: O(log *k*).
    @inlinable func sum(below key: Int) -> Int {
        var index = keys._countLess(than: key)
        var total = 0
        while index > 0 {
            total += tree[index]
            index -= index & -index
        }
        return total
    }
}
