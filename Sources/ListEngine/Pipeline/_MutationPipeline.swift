/// The hand-off between callers and the diff queue, as a value-type state machine.
///
/// Callers `submit` commands; the first submission into an idle pipeline asks for a
/// drain to be scheduled. The drain repeatedly takes everything pending (so mutations
/// that arrive while a batch is computed are coalesced into the next one) until nothing
/// is left, and then the pipeline is idle again. No command is lost or taken twice.
///
/// **Coalescing** is decided here and nowhere else. What the drain takes comes as
/// ``Step``s: consecutive `add` and `remove` calls form one ``Step/edits(_:mayGrow:)``
/// run, which the diff engine applies together; every other command is a step of its
/// own. The last step taken, when it is a run, *may grow*: `add` and `remove` calls
/// submitted after it was taken, up to the first call of another kind, may still join
/// it through ``takeLeadingEdits(into:)``. The diff engine decides whether waiting for
/// them pays (only for a bulk edit); the pipeline decides what may join.
///
/// **Lingering.** Waking an idle queue's thread costs tens of microseconds, more than
/// placing one row in a million-row list. So when calls have been arriving faster than
/// that (a submission came within ``_Tuning/lingerNanoseconds`` of the last drain running out of
/// commands, so a linger would have caught it), a drain that runs out of commands keeps
/// polling for that long before going idle: a call made meanwhile is taken without
/// waking anything. A linger that catches nothing ends lingering until calls come that
/// quickly again, so a list updated now and then never polls more than once after a
/// burst, and neither does one whose calls come just too slowly to be caught.
@usableFromInline struct _MutationPipeline<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline enum State: Sendable {
        case idle
        case draining(pending: [_Command<Item>])
    }

    /// One unit of the drain's work, in submission order.
    @usableFromInline enum Step: Sendable {
        /// Consecutive `add` and `remove` calls, applied together. `mayGrow`: nothing was
        /// taken after the run, so calls submitted since may join it.
        case edits(_EditRun<Item>, mayGrow: Bool)
        case removeAll
        case replaceAll([Item])
        case sort(@Sendable (Item, Item) -> Bool)
        /// Read-modify-write of the listed rows, against every step before it.
        case update([Item.ID], @Sendable (inout Item) -> Void)
        /// Remove the rows the predicate selects, against every step before it.
        case removeWhere(@Sendable (Item) -> Bool)
        /// Several edits, against every step before it (``ListEdits``).
        case perform(@Sendable (inout ListEdits<Item>) -> Void)
        /// Publish what was applied, then start delivering to a renderer.
        case attach(_RendererBox<Item>)
        /// Publish what was applied, then resume once it is delivered everywhere.
        case flush(CheckedContinuation<ListSnapshot<Item>, Never>)
    }

    /// What the drain does next.
    @usableFromInline enum Next: Sendable {
        /// Perform these steps, in order, then publish a batch for what they changed.
        case steps([Step])
        /// Nothing is pending, but the drain lingers: yield the core, then ask again.
        case poll
        /// Nothing is pending and the pipeline is idle: the drain ends, and the next
        /// submission schedules a new one.
        case idle
    }

    @usableFromInline enum SubmitAction: Equatable {
        /// The pipeline was idle: schedule a drain on the diff queue.
        case scheduleDrain
        /// A drain is scheduled or running; it will pick the command up.
        case none
    }

    @usableFromInline var state: State = .idle
    /// Whether a drain that runs out of commands lingers before going idle.
    @usableFromInline var lingers = false
    /// When the drain last found no command pending: the start of its linger, if it
    /// lingers. `nil` while it has commands, and before any drain ran out of them.
    @usableFromInline var ranOutAt: UInt64? = nil

    /// Records a command.
    ///
    /// - Parameters:
    ///   - command: the call.
    ///   - now: the current time in nanoseconds (a monotonic clock), read only when the
    ///     pipeline is idle.
    @inlinable mutating func submit(_ command: _Command<Item>, at now: @autoclosure () -> UInt64) -> SubmitAction {
        switch state {
        case .idle:
            if let ranOutAt, now() &- ranOutAt < _Tuning.lingerNanoseconds { lingers = true }
            state = .draining(pending: [command])
            return .scheduleDrain
        case .draining(var pending):
            state = .idle  // release the array's storage so the append does not copy
            pending.append(command)
            state = .draining(pending: pending)
            return .none
        }
    }

    /// Called by the drain while it applies a run that may grow: moves into `run` the
    /// `add` and `remove` calls submitted since, up to the first command of another
    /// kind, which stays pending with everything after it. Returns whether it took any.
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

    /// Whether a command waits to be taken.
    ///
    /// - Complexity: O(1).
    @inlinable var hasPendingCommands: Bool {
        guard case .draining(let pending) = state else { return false }
        return !pending.isEmpty
    }

    /// Called by the drain: what to do next.
    ///
    /// - Parameter now: the current time in nanoseconds, on the clock of ``submit(_:at:)``.
    @inlinable mutating func next(at now: @autoclosure () -> UInt64) -> Next {
        guard case .draining(let pending) = state else { return .idle }
        if !pending.isEmpty {
            state = .draining(pending: [])
            ranOutAt = nil
            return .steps(Self.steps(of: pending))
        }
        let now = now()
        let ranOut = ranOutAt ?? now
        ranOutAt = ranOut
        if lingers {
            if now &- ranOut < _Tuning.lingerNanoseconds { return .poll }
            lingers = false  // this linger caught nothing
        }
        state = .idle
        return .idle
    }

    /// The steps for `commands`: each run of consecutive `add` and `remove` calls
    /// becomes one ``Step/edits(_:mayGrow:)`` step, which may grow when it is the last.
    ///
    /// - Complexity: O(*c*) for *c* commands.
    @inlinable static func steps(of commands: consuming [_Command<Item>]) -> [Step] {
        var steps: [Step] = []
        var run = _EditRun<Item>()
        func endRun() {
            guard !run.isEmpty else { return }
            steps.append(.edits(run, mayGrow: false))
            run = _EditRun()
        }
        // Taken out of the array one by one, in order, so that no command is copied.
        var commands = commands
        commands.reverse()
        while let command = commands.popLast() {
            switch command {
            case .add(let items): run.add(items)
            case .remove(let ids): run.remove(ids)
            case .removeAll: endRun(); steps.append(.removeAll)
            case .replaceAll(let items): endRun(); steps.append(.replaceAll(items))
            case .sort(let comparator): endRun(); steps.append(.sort(comparator))
            case .update(let ids, let change): endRun(); steps.append(.update(ids, change))
            case .removeWhere(let predicate): endRun(); steps.append(.removeWhere(predicate))
            case .perform(let edits): endRun(); steps.append(.perform(edits))
            case .attach(let box): endRun(); steps.append(.attach(box))
            case .flush(let continuation): endRun(); steps.append(.flush(continuation))
            }
        }
        if !run.isEmpty { steps.append(.edits(run, mayGrow: true)) }
        return steps
    }
}
