/// One step of a sectioned batch's edit script (``SectionedChangeBatch/steps``).
///
/// Each step refers to the list as it stands after the previous steps: its sections,
/// and the rows inside each.
public enum SectionedListStep<Section, Item> {
    /// Insert an empty section with the key at the section offset.
    case insertSection(Section, at: Int)
    /// Remove the section at the offset; it is empty by then.
    case removeSection(at: Int)
    /// Insert the item at the index path.
    case insert(Item, at: ListIndexPath)
    /// Remove the row at the index path.
    case remove(at: ListIndexPath)
    /// Move the row at `from` to `to` (`to` is an index path after the removal, possibly
    /// in another section).
    case move(from: ListIndexPath, to: ListIndexPath)
    /// Replace the row at the index path with the item (same id, new content).
    case reload(Item, at: ListIndexPath)
}

extension SectionedListStep: Sendable where Section: Sendable, Item: Sendable {}
extension SectionedListStep: Equatable where Section: Equatable, Item: Equatable {}
