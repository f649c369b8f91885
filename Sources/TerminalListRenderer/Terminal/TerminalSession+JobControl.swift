import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a started session calls back.
struct _SessionHandlers: Sendable {
    let onKeys: @Sendable ([Key]) -> Void
    let onResize: @Sendable (TerminalSize) -> Void
    let onContinue: (@Sendable () -> Void)?
}

/// A session's job-control state and what it drives, under one lock.
struct _SessionControl: Sendable {
    var machine = _JobControlStateMachine()
    /// The program's handlers; `nil` unless started and not restored.
    var handlers: _SessionHandlers?
    /// The key reader, while the machine says keys are read.
    var reader: _SourceHandle?
    /// The timer that checks the foreground, while the machine asks for checks.
    var foregroundTimer: _SourceHandle?
}

/// How often a waiting session checks whether its process is in the foreground.
private let _foregroundCheckInterval = DispatchTimeInterval.milliseconds(100)

extension TerminalSession {
    /// Whether the process is the foreground process group of the input terminal.
    ///
    /// A terminal that is not the process's controlling terminal (`tcgetpgrp` fails
    /// with ENOTTY) has no job control for this process: it counts as the foreground.
    func _isForeground() -> Bool {
        let group = tcgetpgrp(inputDescriptor)
        guard group != -1 else { return true }
        return group == getpgrp()
    }

    /// Runs one event through the state machine and performs the action it returns,
    /// under the control lock; then, outside the lock, reports the size and asks for a
    /// full redraw when the terminal was taken again.
    ///
    /// - Parameter event: the event, given the machine and whether the process is in
    ///   the foreground now.
    /// - Returns: the action performed.
    @discardableResult
    func _handle(_ event: (inout _JobControlStateMachine, _ isForeground: Bool) -> _JobControlStateMachine.Action) -> _JobControlStateMachine.Action {
        let isForeground = _isForeground()
        let (action, handlers) = _control.withLock { control in
            var action = event(&control.machine, isForeground)
            do {
                try _perform(action, on: &control)
            } catch {
                // Only taking the terminal throws; wait and try again on the timer.
                action = control.machine.takeFailed()
                try? _perform(action, on: &control)
            }
            _syncForegroundTimer(&control)
            return (action, control.handlers)
        }
        if action == .take(redraw: true), let handlers {
            if let size = TerminalSession.size(of: outputDescriptor) { handlers.onResize(size) }
            handlers.onContinue?()
        }
        return action
    }

    /// Installs the handlers and runs the start event; throws, leaving the session
    /// idle, when the terminal cannot be taken.
    ///
    /// - Returns: `false` when the session was started already (nothing done).
    func _begin(with handlers: _SessionHandlers) throws(TerminalError) -> Bool {
        let isForeground = _isForeground()
        let outcome: Result<Bool, TerminalError> = _control.withLock { control in
            guard control.machine.state == .idle else { return .success(false) }
            // Background reads and attribute changes fail (EIO) or proceed instead of
            // stopping the process: the session checks the foreground itself.
            signal(SIGTTOU, SIG_IGN)
            signal(SIGTTIN, SIG_IGN)
            control.handlers = handlers
            let action = control.machine.started(isForeground: isForeground)
            do throws(TerminalError) {
                try _perform(action, on: &control)
            } catch {
                _ = control.machine.restoreRequested()
                try? _perform(.restore, on: &control)
                return .failure(error)
            }
            _syncForegroundTimer(&control)
            return .success(true)
        }
        return try outcome.get()
    }

    /// Performs `action` on the terminal, the key reader and the handlers.
    private func _perform(_ action: _JobControlStateMachine.Action, on control: inout _SessionControl) throws(TerminalError) {
        switch action {
        case .none, .stop:
            break
        case .take:
            try _takeTerminal()
            if control.reader == nil { control.reader = _makeReader() }
        case .giveBackAndStop:
            _cancel(&control.reader)
            _restoreTerminalNow()
        case .letGo:
            _cancel(&control.reader)
            _forgetTerminalChanges()
        case .resumeReading:
            if control.reader == nil { control.reader = _makeReader() }
        case .pauseReading:
            _cancel(&control.reader)
        case .restore:
            _cancel(&control.reader)
            _cancel(&control.foregroundTimer)
            control.handlers = nil
            _restoreTerminalNow()
            signal(SIGTTOU, SIG_DFL)
            signal(SIGTTIN, SIG_DFL)
        }
    }

    /// Raw mode, the alternate screen, no cursor, no autowrap, a clear screen.
    private func _takeTerminal() throws(TerminalError) {
        try _enterRawMode()
        FileDescriptorOutput(fileDescriptor: outputDescriptor).write(
            _ControlSequence.enterAlternateScreen + _ControlSequence.hideCursor + _ControlSequence.disableAutowrap
                + _ControlSequence.resetStyle + _ControlSequence.eraseScreen
        )
    }

    /// Starts the foreground timer when the machine asks for checks, and stops it
    /// when it no longer does.
    private func _syncForegroundTimer(_ control: inout _SessionControl) {
        guard control.machine.needsForegroundChecks else {
            _cancel(&control.foregroundTimer)
            return
        }
        guard control.foregroundTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: _queue)
        timer.schedule(deadline: .now() + _foregroundCheckInterval, repeating: _foregroundCheckInterval)
        timer.setEventHandler { [weak self] in
            self?._handle { machine, isForeground in machine.foregroundChecked(isForeground: isForeground) }
        }
        control.foregroundTimer = _SourceHandle(source: timer)
        timer.resume()
    }

    private func _cancel(_ handle: inout _SourceHandle?) {
        handle?.source.cancel()
        handle = nil
    }
}
