/// One call made on a data source, in submission order.
@usableFromInline enum _Command<Item: Hashable & DataSourceComparable>: Sendable {
    case add([Item])
    case remove([Item.ID])
    case removeAll
    case replaceAll([Item])
    case sort(@Sendable (Item, Item) -> Bool)
    /// Change each listed row as every earlier command left it.
    case update([Item.ID], @Sendable (inout Item) -> Void)
    /// Remove the rows the predicate selects, as every earlier command left them.
    case removeWhere(@Sendable (Item) -> Bool)
    /// Several edits decided on the state every earlier command left, as one call.
    case perform(@Sendable (inout ListEdits<Item>) -> Void)
    /// Start delivering to a renderer: attach batch first.
    case attach(_RendererBox<Item>)
    /// Resume once every earlier command is delivered everywhere.
    case flush(CheckedContinuation<ListSnapshot<Item>, Never>)
}
