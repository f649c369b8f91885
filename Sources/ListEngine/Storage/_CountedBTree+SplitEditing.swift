/// An editing pass cut into pieces that run on two threads.
///
/// The cost of a large pass is reaching and copying the leaves it edits, spread evenly
/// over the tree. Cutting one level of the tree into runs of nodes, with the edits that
/// go into each, gives passes that share nothing but read-only nodes: each editor copy
/// writes only its own state and its own new nodes. The pieces' results are then joined
/// in order: the editors compare notes at each seam, and the runs of new nodes get fresh
/// branches above them.
///
/// Two threads take the pieces from either end, one from the first piece on and the
/// other from the last one back, until they meet: a thread that runs slower (its core
/// shared, its memory further away) takes fewer pieces, and the thread that edits a
/// part of the list stays about the same from one pass to the next, so the leaves a pass
/// replaces go back to the allocator's arena that the next pass there allocates from
/// (see ``_BulkThreads``).
extension _CountedBTree where Element: Sendable {
    /// One level of the tree and where a pass over it is cut into pieces.
    @usableFromInline struct _Cut: Sendable {
        /// Every node of the level, in order.
        @usableFromInline var level: _Siblings
        /// Per piece, in order: its first node (the first piece's is 0).
        @usableFromInline var nodes: [Int]
        /// Per piece: its first edit (the first piece's is 0).
        @usableFromInline var edits: [Int]
        /// Per piece: the position, in the tree, of its first element.
        @usableFromInline var offsets: [Int]

        @inlinable init(level: _Siblings, nodes: [Int], edits: [Int], offsets: [Int]) {
            self.level = level
            self.nodes = nodes
            self.edits = edits
            self.offsets = offsets
        }

        /// The number of pieces.
        @inlinable var pieceCount: Int { nodes.count }

        /// The nodes of piece `piece`.
        @inlinable func slots(of piece: Int) -> Range<Int> {
            nodes[piece] ..< (piece + 1 < nodes.count ? nodes[piece + 1] : level.nodes.count)
        }

        /// The edits of piece `piece`, of `editCount` in all.
        @inlinable func edits(of piece: Int, editCount: Int) -> Range<Int> {
            edits[piece] ..< (piece + 1 < edits.count ? edits[piece + 1] : editCount)
        }
    }

    /// The tree with the editor's edits applied, as ``_editing(with:)`` builds it, with
    /// the work shared by two threads when the edits are many.
    ///
    /// The result, and the records the editor holds afterwards, are the same as from
    /// ``_editing(with:)``, which runs instead when the tree is too small to cut or the
    /// edits are fewer than `threshold`.
    ///
    /// - Complexity: that of ``_editing(with:)``, about halved in time on two cores.
    @inlinable func _editingConcurrently<Editor: _TreeEditor & Sendable>(
        with editor: inout Editor, from threshold: Int = _Tuning.parallelEditMinimumIDs, pieces: Int = _Tuning.concurrentEditPieces
    ) -> _CountedBTree? where Editor.Element == Element {
        guard editor.editCount >= threshold, let cut = _cut(for: editor, pieces: pieces) else { return _editing(with: &editor) }
        var laterEditor = editor
        laterEditor.beginLaterPart()
        // Per piece, its result; and the next piece from the front and from the back.
        let state = LockedState<(results: [_Part<Editor>?], front: Int, back: Int)>(
            (Array(repeating: nil, count: cut.pieceCount), 0, cut.pieceCount - 1)
        )
        let earlier = editor, later = laterEditor, fanout = fanout
        _forEachConcurrently(2) { thread in
            while let piece = state.withLock({ state -> Int? in
                guard state.front <= state.back else { return nil }
                if thread == 0 {
                    state.front += 1
                    return state.front - 1
                }
                state.back -= 1
                return state.back + 1
            }) {
                let result = Self._edit(piece == 0 ? earlier : later, cut: cut, piece: piece, fanout: fanout)
                state.withLock { $0.results[piece] = result }
            }
        }
        let results = state.withLock { $0.results }
        guard let first = results[0] else { return nil }
        editor = first.editor
        var fragments = first.fragments, emitted = first.emitted
        for piece in 1 ..< cut.pieceCount {
            guard let part = results[piece], editor.join(
                part.editor, laterEdits: cut.edits(of: piece, editCount: editor.editCount), emittedBefore: emitted,
                lastBefore: fragments.last.map { Self._last(of: $0.node) }, firstAfter: part.fragments.first?.first
            ) else { return nil }
            fragments.append(contentsOf: part.fragments)
            emitted += part.emitted
        }
        return Self._tree(stacking: Self._normalized(fragments, fanout: fanout), fanout: fanout)
    }

    /// What one piece of a cut pass built, and its editor afterwards.
    @usableFromInline struct _Part<Editor: _TreeEditor & Sendable>: Sendable where Editor.Element == Element {
        @usableFromInline var editor: Editor
        @usableFromInline var fragments: [_Fragment]
        @usableFromInline var emitted: Int

        @inlinable init(editor: Editor, fragments: [_Fragment], emitted: Int) {
            self.editor = editor
            self.fragments = fragments
            self.emitted = emitted
        }
    }

    /// Applies the edits of piece `piece` of `cut` to its nodes, with `editor` (for a piece
    /// after the first, a copy prepared by ``_TreeEditor/beginLaterPart()``); `nil` when
    /// the editor gave up.
    @inlinable static func _edit<Editor: _TreeEditor & Sendable>(
        _ editor: Editor, cut: _Cut, piece: Int, fanout: _Fanout
    ) -> _Part<Editor>? where Editor.Element == Element {
        var editor = editor
        let slots = cut.slots(of: piece)
        var emitted = 0
        var fragments: [_Fragment] = []
        fragments.reserveCapacity(slots.count + 2)
        guard _edit(
            cut.level, slots, cut.edits(of: piece, editCount: editor.editCount), oldOffset: cut.offsets[piece], emitted: &emitted, editor: &editor,
            fanout: fanout, into: &fragments
        ) else {
            return nil
        }
        return _Part(editor: editor, fragments: fragments, emitted: emitted)
    }

    /// The highest level of the tree with enough nodes to cut it into `pieces` pieces of
    /// about as many edits each, and the cut: at most `pieces` pieces, each with at least
    /// one edit; `nil` when the tree is a single leaf or fewer than two pieces have edits.
    ///
    /// Each edit goes into the last node that starts at or before it, as in a whole pass.
    @inlinable func _cut<Editor: _TreeEditor>(for editor: Editor, pieces: Int) -> _Cut? where Editor.Element == Element {
        guard let root, !root.isLeaf, pieces >= 2 else { return nil }
        var level = _Siblings(childrenOf: root)
        while level.nodes.count < 4 * pieces && !level.nodes[0].isLeaf {
            var next = _Siblings(nodes: [], counts: [], firsts: [])
            for node in level.nodes {
                next.nodes.append(contentsOf: node.children)
                next.counts.append(contentsOf: node.childCounts)
                next.firsts.append(contentsOf: node.childFirsts)
            }
            level = next
        }
        // For each node after the first, the first edit that goes into it or a later one.
        var firstEdits = [0]
        for node in 1 ..< level.nodes.count {
            firstEdits.append(Self._firstEdit(in: firstEdits[node - 1] ..< editor.editCount, atOrAfter: level.firsts[node], editor: editor))
        }
        var nodes = [0], edits = [0], offsets = [0]
        var offset = 0, counted = 0
        for piece in 1 ..< pieces {
            let target = piece * editor.editCount / pieces
            // The node whose first edit is nearest the target, after the last piece's.
            var best: Int? = nil
            for node in (nodes[nodes.count - 1] + 1) ..< level.nodes.count where firstEdits[node] > edits[edits.count - 1] && firstEdits[node] < editor.editCount {
                if let current = best, abs(firstEdits[node] - target) >= abs(firstEdits[current] - target) { break }
                best = node
            }
            guard let node = best else { break }
            while counted < node {
                offset += level.counts[counted]
                counted += 1
            }
            nodes.append(node)
            edits.append(firstEdits[node])
            offsets.append(offset)
        }
        guard nodes.count >= 2 else { return nil }
        return _Cut(level: level, nodes: nodes, edits: edits, offsets: offsets)
    }
}
