extension _SectionRule {
    @inlinable func checkInvariants(of batch: ChangeBatch<Item>) {
        SectionedChangeBatch(batch, rule: self)._checkInvariants()
    }
}

extension SectionedSnapshot {
    /// Traps unless the sections are ordered by key, non-empty and contiguous, cover the
    /// rows exactly, and hold only rows of their key (invariant S4).
    /// Costs O(*n* + *s* log *n*); meant for tests and `LIST_INTERNAL_CHECKS` builds.
    @inlinable func _checkInvariants() {
        var next = 0
        var previousKey: Section? = nil
        for section in sections {
            if let previousKey { precondition(previousKey < section.key, "section keys out of order: \(self)") }
            precondition(section.rows.lowerBound == next && !section.rows.isEmpty, "sections do not cover the rows contiguously: \(self)")
            for offset in section.rows {
                precondition(_sectionOf(rows[offset]) == section.key, "row \(offset) is in section \(section.key) but has another key: \(self)")
            }
            next = section.rows.upperBound
            previousKey = section.key
        }
        precondition(next == rows.count, "sections cover \(next) of \(rows.count) rows: \(self)")
    }

    /// The rows as nested arrays, one per section.
    ///
    /// - Complexity: O(*n* + *s* log *n*).
    @inlinable var _nested: [[Item]] { sections.map { section in section.rows.map { rows[$0] } } }
}

extension SectionedChangeBatch {
    /// Traps unless the batch satisfies invariants S1, S2 and S4 and matches its flat
    /// form (S3 is checked on the flat form, whose moves are the same rows).
    /// Costs O(*n* log *n*); meant for tests and `LIST_INTERNAL_CHECKS` builds.
    @inlinable func _checkInvariants() {
        old._checkInvariants()
        new._checkInvariants()
        precondition(old.version == rows.old.version && new.version == rows.new.version, "versions differ from the flat batch: \(self)")
        let expected = new._nested
        precondition(Self._isSameNested(_applyingSets(to: old._nested), expected), "sets do not turn old into new: \(self)")
        var stepped = old._nested
        Self._apply(steps, to: &stepped)
        precondition(Self._isSameNested(stepped, expected), "steps do not turn old into new: \(self)")

        let oldKeys = old.sections.keys, newKeys = new.sections.keys
        let oldKeySet = Set(oldKeys), newKeySet = Set(newKeys)
        precondition(sectionDeletions == oldKeys.indices.filter { !newKeySet.contains(oldKeys[$0]) }, "section deletions are not exact: \(self)")
        precondition(sectionInsertions == newKeys.indices.filter { !oldKeySet.contains(newKeys[$0]) }, "section insertions are not exact: \(self)")
        precondition(itemDeletions == rows.deletions.map { old._indexPath(ofRowAt: $0) }, "item deletions differ from the flat batch: \(self)")
        precondition(itemInsertions == rows.insertions.map { new._indexPath(ofRowAt: $0) }, "item insertions differ from the flat batch: \(self)")
        precondition(itemReloads == rows.reloads.map { new._indexPath(ofRowAt: $0) }, "item reloads differ from the flat batch: \(self)")
        precondition(
            itemMoves == rows.moves.map { ListIndexPathMove(from: old._indexPath(ofRowAt: $0.from), to: new._indexPath(ofRowAt: $0.to)) },
            "item moves differ from the flat batch: \(self)"
        )
    }

    /// `nested` with the sets applied in the documented order.
    ///
    /// - Complexity: O(*n* + *k* log *k*).
    @inlinable func _applyingSets(to nested: [[Item]]) -> [[Item]] {
        var sections = nested
        var moved: [ListIndexPath: Item] = [:]
        for move in itemMoves { moved[move.from] = sections[move.from.section][move.from.item] }
        let removals = (itemDeletions + itemMoves.map(\.from)).sorted(by: >)
        for path in removals { sections[path.section].remove(at: path.item) }
        for offset in sectionDeletions.reversed() {
            precondition(sections[offset].isEmpty, "deleted section \(offset) is not empty once its rows are removed: \(self)")
            sections.remove(at: offset)
        }
        for offset in sectionInsertions { sections.insert([], at: offset) }
        var arrivals: [(ListIndexPath, Item)] = itemInsertions.map { ($0, new[$0]) }
        for move in itemMoves {
            guard let item = moved[move.from] else { preconditionFailure("a move has no source row") }
            arrivals.append((move.to, item))
        }
        for (path, item) in arrivals.sorted(by: { $0.0 < $1.0 }) { sections[path.section].insert(item, at: path.item) }
        for path in itemReloads { sections[path.section][path.item] = new[path] }
        return sections
    }

    /// Applies `steps` to `nested`, one by one.
    @inlinable static func _apply(_ steps: [SectionedListStep<Section, Item>], to nested: inout [[Item]]) {
        for step in steps {
            switch step {
            case .insertSection(_, let offset):
                nested.insert([], at: offset)
            case .removeSection(let offset):
                precondition(nested[offset].isEmpty, "step removes section \(offset), which is not empty")
                nested.remove(at: offset)
            case .insert(let item, let path):
                nested[path.section].insert(item, at: path.item)
            case .remove(let path):
                nested[path.section].remove(at: path.item)
            case .move(let from, let to):
                let item = nested[from.section].remove(at: from.item)
                nested[to.section].insert(item, at: to.item)
            case .reload(let item, let path):
                nested[path.section][path.item] = item
            }
        }
    }

    /// Whether two nested arrays hold the same rows with the same content.
    @inlinable static func _isSameNested(_ first: [[Item]], _ second: [[Item]]) -> Bool {
        first.count == second.count && zip(first, second).allSatisfy { ChangeBatch<Item>._isSameRows($0, $1) }
    }
}
