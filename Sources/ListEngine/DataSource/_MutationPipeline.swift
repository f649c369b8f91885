/// One call made on a data source, in submission order.
@usableFromInline enum _Command<Item: Hashable & DataSourceComparable>: Sendable {
    case add([Item])
    case remove([Item.ID])
    case removeAll
    case replaceAll([Item])
    case sort(@Sendable (Item, Item) -> Bool)
    /// Start delivering to a renderer: attach batch first.
    case attach(_RendererBox<Item>)
    /// Resume once every earlier command is delivered everywhere.
    case flush(CheckedContinuation<ListSnapshot<Item>, Never>)
}

/// The hand-off between callers and the diff queue, as a value-type state machine.
///
/// Callers `submit` commands; the first submission into an idle pipeline asks for a
/// drain to be scheduled. The drain repeatedly takes everything pending (so mutations
/// that arrive while a batch is computed are coalesced into the next one) until nothing
/// is left, and then the pipeline is idle again. No command is lost or taken twice.
@usableFromInline struct _MutationPipeline<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline enum State: Sendable {
        case idle
        case draining(pending: [_Command<Item>])
    }

    @usableFromInline enum SubmitAction: Equatable {
        /// The pipeline was idle: schedule a drain on the diff queue.
        case scheduleDrain
        /// A drain is scheduled or running; it will pick the command up.
        case none
    }

    @usableFromInline var state: State = .idle

    /// Records a command.
    @inlinable mutating func submit(_ command: _Command<Item>) -> SubmitAction {
        switch state {
        case .idle:
            state = .draining(pending: [command])
            return .scheduleDrain
        case .draining(var pending):
            state = .idle  // release the array's storage so the append does not copy
            pending.append(command)
            state = .draining(pending: pending)
            return .none
        }
    }

    /// Called by the drain while it applies the last run of `add` and `remove` calls it
    /// took: moves into `run` the `add` and `remove` calls submitted since, up to the
    /// first command of another kind, which stays pending with everything after it.
    /// Returns whether it took any.
    ///
    /// - Complexity: O(*p*) for *p* pending commands.
    @inlinable mutating func takeLeadingEdits(into run: inout _EditRun<Item>) -> Bool {
        guard case .draining(var pending) = state else { return false }
        var taken = 0
        loop: for command in pending {
            switch command {
            case .add(let items): run.add(items)
            case .remove(let ids): run.remove(ids)
            default: break loop
            }
            taken += 1
        }
        guard taken > 0 else { return false }
        state = .idle  // release the array's storage so the removal does not copy
        pending.removeFirst(taken)
        state = .draining(pending: pending)
        return true
    }

    /// Called by the drain: the commands to process next, or `nil` when there are none
    /// (the pipeline is then idle, and the next submission schedules a new drain).
    @inlinable mutating func takePending() -> [_Command<Item>]? {
        switch state {
        case .idle:
            return nil
        case .draining(let pending):
            if pending.isEmpty {
                state = .idle
                return nil
            }
            state = .draining(pending: [])
            return pending
        }
    }
}
