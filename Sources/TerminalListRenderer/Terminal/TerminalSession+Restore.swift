import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Restoring the terminal must work from a signal handler, where only async-signal-safe
// calls are allowed: no locks, no allocation, no Swift runtime calls that might take a
// lock. So the state it needs lives in memory allocated up front and is reached through
// `let` pointers (no exclusivity bookkeeping), guarded by a lock-free atomic flag, and
// the work is two system calls, `write` and `tcsetattr`, both async-signal-safe.

/// Whether the terminal is modified and not yet restored. Exchanged to `false` by the
/// one caller that gets to restore, so restoring happens once however many paths race.
private let _isTerminalModified = Atomic<Bool>(false)
private let _areHandlersInstalled = Atomic<Bool>(false)

/// The saved attributes and descriptors.
///
/// Safety of `nonisolated(unsafe)`: the pointee is written only in `_enterRawMode` while
/// `_isTerminalModified` is `false`, before the flag is stored `true` with release
/// ordering. It is read in `_restoreTerminalNow` after exchanging the flag with acquire
/// ordering, and in `_enterRawMode` after loading the flag `true` with acquire ordering
/// (taking the terminal again keeps the attributes still to be restored): concurrent
/// reads only. It is written again only after a restore, or `_forgetTerminalChanges`,
/// has set the flag back to `false`.
nonisolated(unsafe) private let _saved: UnsafeMutablePointer<_SavedTerminal> = {
    let pointer = UnsafeMutablePointer<_SavedTerminal>.allocate(capacity: 1)
    pointer.initialize(to: _SavedTerminal())
    return pointer
}()

/// The signal actions that were installed before the crash handler, by signal number.
///
/// Safety of `nonisolated(unsafe)`: written once in `_installCrashHandlers`, guarded by
/// `_areHandlersInstalled`, before any crash handler that reads it is installed.
nonisolated(unsafe) private let _previousActions: UnsafeMutablePointer<sigaction> = {
    let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    pointer.initialize(repeating: sigaction(), count: 65)
    return pointer
}()

private struct _SavedTerminal {
    var attributes = termios()
    var input: Int32 = 0
    var output: Int32 = 1
}

/// Leaves the alternate screen, shows the cursor, turns autowrap on, resets colours.
private let _restoreSequence: StaticString = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

private let _crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

/// Signals whose default action ends the process, other than the crash signals and the
/// ones the session handles on its queue: the terminal is restored before they end it,
/// unless the program has a handler of its own for them.
private let _otherEndingSignals: [Int32] = {
    var signals = [SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPIPE, SIGSYS]
    #if os(Linux)
    signals += [SIGSTKFLT, SIGPWR]
    #endif
    return signals
}()

/// Restores the terminal if a session modified it. Async-signal-safe.
func _restoreTerminalNow() {
    guard _isTerminalModified.exchange(false, ordering: .acquiringAndReleasing) else { return }
    let output = _saved.pointee.output
    _ = write(output, _restoreSequence.utf8Start, _restoreSequence.utf8CodeUnitCount)
    withUnsafeMutablePointer(to: &_saved.pointee.attributes) { attributes in
        _ = tcsetattr(_saved.pointee.input, TCSANOW, attributes)
    }
}

/// Forgets the terminal's saved attributes without writing anything to it: another
/// process group (a shell) has the terminal and has set it up its own way.
func _forgetTerminalChanges() {
    _isTerminalModified.store(false, ordering: .releasing)
}

extension TerminalSession {
    /// Saves the attributes, installs every restore path, then switches to raw mode.
    ///
    /// Attributes saved earlier and not yet restored are kept: taking the terminal
    /// again after an outside stop must not save the raw mode as what to restore.
    func _enterRawMode() throws(TerminalError) {
        var attributes = termios()
        let wasModified = _isTerminalModified.load(ordering: .acquiring)
        if wasModified {
            attributes = _saved.pointee.attributes
        } else {
            guard tcgetattr(inputDescriptor, &attributes) == 0 else {
                throw .cannotReadAttributes(fileDescriptor: inputDescriptor, errno: errno)
            }
            _saved.pointee = _SavedTerminal(attributes: attributes, input: inputDescriptor, output: outputDescriptor)
        }
        _installRestoreHandlers()

        var raw = attributes
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        _isTerminalModified.store(true, ordering: .releasing)
        guard tcsetattr(inputDescriptor, TCSAFLUSH, &raw) == 0 else {
            let code = errno
            _isTerminalModified.store(wasModified, ordering: .releasing)
            throw .cannotSetAttributes(fileDescriptor: inputDescriptor, errno: code)
        }
    }

    /// `atexit` and the crash handlers, once per process.
    private func _installRestoreHandlers() {
        guard !_areHandlersInstalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        atexit { _restoreTerminalNow() }
        _installAlternateSignalStack()
        for signal in _otherEndingSignals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { continue }  // SIG_DFL only
            _installCrashHandler(for: signal)
        }
        for signal in _crashSignals { _installCrashHandler(for: signal) }
    }

    /// Installs the restoring handler for `signal`, keeping the previous action.
    private func _installCrashHandler(for signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = _crashHandler
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, _previousActions + Int(signal))
    }

    /// A stack for the crash handler, so a stack overflow can still restore the terminal.
    private func _installAlternateSignalStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        let size = 64 * 1024
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        stack.ss_size = size
        stack.ss_flags = 0
        _ = sigaltstack(&stack, nil)
    }
}

/// Restores the terminal, puts the previous action back, and lets the signal proceed:
/// a fault re-runs the faulting instruction under the previous action when the handler
/// returns; a signal that was sent (kill, raise, abort), or one of the other ending
/// signals, is raised again.
private func _crashHandler(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    _restoreTerminalNow()
    _ = sigaction(signal, _previousActions + Int(signal), nil)
    // A fault the kernel raised (a positive code) happens again when the instruction
    // re-runs; anything else (sent, or an ending signal such as SIGPIPE) is raised again.
    let isFault = signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE || signal == SIGTRAP
    if !isFault || (info.map { $0.pointee.si_code <= 0 } ?? true) {
        _ = raise(signal)
    }
}
