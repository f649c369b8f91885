import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A full-screen session on a terminal: raw mode, the alternate screen, keys, resizes,
/// job control, and a terminal that is always given back the way it was found.
///
/// ``start(onKey:onResize:onTerminationSignal:onContinue:)`` saves the terminal's attributes,
/// switches it to raw mode (no echo, no line buffering, Ctrl-C arriving as a key),
/// enters the alternate screen, hides the cursor and turns autowrap off. From then on
/// the terminal is restored — attributes, screen, cursor, autowrap — by whichever
/// comes first:
///
/// - ``restore()``, called by the program (on `q`, say);
/// - normal process exit (`exit()`, returning from `main`), through `atexit`;
/// - SIGTERM, SIGINT, SIGHUP or SIGQUIT, caught with `DispatchSourceSignal`: the
///   handler you pass runs, and by default restores and exits with status 128 + signal;
/// - another signal that ends the process by default (SIGUSR1, SIGPIPE, SIGALRM, …),
///   unless the program handles it: restored, then the signal ends the process;
/// - a crash that raises a signal — a failed precondition or force unwrap (SIGILL,
///   SIGTRAP), SIGSEGV, SIGBUS, SIGFPE, SIGABRT — through an async-signal-safe handler
///   that restores the terminal and then passes the signal on to the handler that was
///   installed before (the runtime's backtracer, or the default action).
///
/// Only SIGKILL cannot be caught; `stty sane` or `reset` repairs the terminal then.
///
/// Job control works as in a shell, and the session holds the terminal only while its
/// process is the terminal's foreground process group (`tcgetpgrp` equals `getpgrp`):
///
/// - SIGTSTP (or ``suspend()``, which a program calls for Ctrl-Z, since raw mode
///   delivers it as a key) gives the terminal back and stops the process.
/// - Continued in the foreground (`fg`), the session takes the terminal again and asks
///   for a full redraw through `onContinue`.
/// - Continued in the background (`kill -CONT`, `bg`), or started there (`list-demo &`),
///   the session waits: it leaves the terminal's attributes and screen alone, reads no
///   keys, and lets nothing through ``output``. It checks the foreground on a timer
///   and takes the terminal, with a full redraw, once the process is brought to the
///   foreground. SIGTTIN and SIGTTOU are ignored while the session runs, so a check
///   that races with the shell fails a read (EIO) instead of stopping the process.
///
/// Draw through ``output``, so nothing is drawn while the terminal is not held. Keys
/// typed faster than they are drawn arrive together: each delivery to
/// ``start(onKeys:onResize:onTerminationSignal:onContinue:)`` carries every key read
/// so far, so a program applies them all and draws once.
///
/// ```swift
/// let session = TerminalSession()
/// let renderer = TerminalListRenderer<Player>(size: size, mode: .ansi(colors: true), output: session.output) { player, _ in
///     StyledText(player.name)
/// }
/// try session.start(
///     onKeys: { keys in
///         renderer.coalescingUpdates {
///             for key in keys {
///                 if key == .character("q") { session.restore(); exit(0) }
///                 if key == .down { renderer.moveSelection(by: 1) }
///             }
///         }
///     },
///     onResize: { size in renderer.resize(to: size) },
///     onContinue: { renderer.redraw() }
/// )
/// ```
public final class TerminalSession: Sendable {
    /// The descriptor keys are read from (standard input by default).
    public let inputDescriptor: Int32
    /// The descriptor the screen is written to (standard output by default).
    public let outputDescriptor: Int32
    /// Writes to ``outputDescriptor`` while the session holds the terminal, and drops
    /// what it is given otherwise: before ``start(onKey:onResize:onTerminationSignal:onContinue:)``,
    /// while the process is stopped or in the background, and after ``restore()``.
    ///
    /// Give it to the renderer. Whatever was dropped is drawn again by the full redraw
    /// `onContinue` asks for when the session takes the terminal again.
    public let output: any TerminalOutput

    let _queue = DispatchQueue(label: "TerminalListRenderer.TerminalSession")
    /// The signal sources; cancelled by ``restore()``.
    let _sources = LockedState<[_SourceHandle]>([])
    /// The key decoder, and how many reads of input it has been fed.
    let _input = LockedState((decoder: KeyDecoder(), reads: 0))
    /// The job-control state machine, the program's handlers, the key reader and the
    /// foreground timer; its lock also orders drawing through ``output`` with taking
    /// and giving back the terminal.
    let _control: LockedState<_SessionControl>

    /// Creates a session on a pair of descriptors; nothing changes until ``start(onKey:onResize:onTerminationSignal:onContinue:)``.
    ///
    /// - Parameters:
    ///   - input: the descriptor keys are read from; standard input by default.
    ///   - output: the descriptor the screen is written to; standard output by default.
    /// - Complexity: O(1).
    public init(input: Int32 = 0, output: Int32 = 1) {
        inputDescriptor = input
        outputDescriptor = output
        let control = LockedState(_SessionControl())
        _control = control
        self.output = _SessionOutput(control: control, fileDescriptor: output)
    }

    /// Whether `fileDescriptor` is a terminal.
    ///
    /// - Parameter fileDescriptor: an open file descriptor.
    /// - Returns: `true` if `isatty` says so; `false` for a file, a pipe or a closed
    ///   descriptor.
    /// - Complexity: O(1): one system call.
    public static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// The size of the terminal on `fileDescriptor`, or `nil` if it is not a terminal
    /// or reports no size.
    ///
    /// - Parameter fileDescriptor: the terminal's descriptor; standard output by default.
    /// - Returns: the rows and columns `TIOCGWINSZ` reports, or `nil` when either is 0.
    /// - Complexity: O(1): one system call.
    public static func size(of fileDescriptor: Int32 = 1) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }

    /// Whether colours are wanted: `false` when the `NO_COLOR` environment variable is
    /// set to a non-empty value (no-color.org).
    ///
    /// - Returns: `true` unless `NO_COLOR` is set and not empty.
    /// - Complexity: O(*e*) for *e* environment variables.
    public static func colorsEnabled() -> Bool {
        guard let value = getenv("NO_COLOR") else { return true }
        return value.pointee == 0
    }

    /// Starts the session, delivering keys one at a time: takes the terminal (raw mode,
    /// the alternate screen) once the process is in the foreground, and delivers keys
    /// and resizes.
    ///
    /// The same as ``start(onKeys:onResize:onTerminationSignal:onContinue:)`` with
    /// `onKey` called for each key in turn.
    ///
    /// - Parameters:
    ///   - onKey: called for every key, on the session's serial queue.
    ///   - onResize: called with the new size after SIGWINCH, on the same queue.
    ///   - onTerminationSignal: called with the signal number for SIGTERM, SIGINT,
    ///     SIGHUP and SIGQUIT; `nil` restores the terminal and exits with 128 + signal.
    ///   - onContinue: called whenever the session takes the terminal again — the
    ///     process was continued after ``suspend()`` or SIGTSTP, or brought to the
    ///     foreground after waiting in the background: draw the whole screen (the
    ///     terminal showed the shell meanwhile). `onResize` is called first with the
    ///     current size.
    /// - Throws: ``TerminalError`` if the input is not a terminal or its attributes
    ///   cannot be read or set; the terminal is then unchanged.
    /// - Complexity: O(1); keys and resizes are delivered later, on the session's queue.
    public func start(
        onKey: @escaping @Sendable (Key) -> Void,
        onResize: @escaping @Sendable (TerminalSize) -> Void,
        onTerminationSignal: (@Sendable (Int32) -> Void)? = nil,
        onContinue: (@Sendable () -> Void)? = nil
    ) throws(TerminalError) {
        try start(
            onKeys: { keys in for key in keys { onKey(key) } },
            onResize: onResize,
            onTerminationSignal: onTerminationSignal,
            onContinue: onContinue
        )
    }

    /// Starts the session: takes the terminal (raw mode, the alternate screen) once the
    /// process is in the foreground — at once, unless it was started in the background —
    /// and delivers keys, in bursts, and resizes.
    ///
    /// Input is drained before it is delivered: each call of `onKeys` carries every key
    /// read since the previous one, so a program that applies them all and then draws
    /// (``TerminalListRenderer/coalescingUpdates(_:)``) writes one update for a burst of
    /// keys, however many there are.
    ///
    /// Does nothing if the session is started and not restored.
    ///
    /// - Parameters:
    ///   - onKeys: called with the keys read, in the order they were typed, never
    ///     empty; on the session's serial queue.
    ///   - onResize: called with the new size after SIGWINCH, on the same queue.
    ///   - onTerminationSignal: called with the signal number for SIGTERM, SIGINT,
    ///     SIGHUP and SIGQUIT; `nil` restores the terminal and exits with 128 + signal.
    ///   - onContinue: called whenever the session takes the terminal again — the
    ///     process was continued after ``suspend()`` or SIGTSTP, or brought to the
    ///     foreground after waiting in the background: draw the whole screen (the
    ///     terminal showed the shell meanwhile). `onResize` is called first with the
    ///     current size.
    /// - Throws: ``TerminalError`` if the input is not a terminal or its attributes
    ///   cannot be read or set; the terminal is then unchanged.
    /// - Complexity: O(1); keys and resizes are delivered later, on the session's queue.
    public func start(
        onKeys: @escaping @Sendable ([Key]) -> Void,
        onResize: @escaping @Sendable (TerminalSize) -> Void,
        onTerminationSignal: (@Sendable (Int32) -> Void)? = nil,
        onContinue: (@Sendable () -> Void)? = nil
    ) throws(TerminalError) {
        guard Self.isTerminal(inputDescriptor) else { throw .notATerminal(fileDescriptor: inputDescriptor) }
        var attributes = termios()
        guard tcgetattr(inputDescriptor, &attributes) == 0 else {
            throw .cannotReadAttributes(fileDescriptor: inputDescriptor, errno: errno)
        }
        let handlers = _SessionHandlers(onKeys: onKeys, onResize: onResize, onContinue: onContinue)
        guard try _begin(with: handlers) else { return }
        _startSignals(onTerminationSignal: onTerminationSignal ?? { signal in
            _restoreTerminalNow()
            exit(128 + signal)
        })
    }

    /// Gives the terminal back and stops the process, as Ctrl-Z does outside raw mode;
    /// returns once the process is continued. Continued in the foreground (`fg`), the
    /// session has taken the terminal again and called `onContinue`; continued in the
    /// background, it waits for the foreground. Does nothing unless the session is
    /// started and not restored.
    ///
    /// Call it for `Key.control("z")`; SIGTSTP from elsewhere (`kill -TSTP`) does the
    /// same. In the background it only stops the process: the terminal is not the
    /// session's to give back.
    /// - Complexity: O(1), plus however long the process stays stopped.
    public func suspend() {
        let action = _handle { machine, _ in machine.suspendRequested() }
        guard action == .giveBackAndStop || action == .stop else { return }
        // Sent to this thread, which so stops before it goes on; the whole process
        // stops with it. (Sent to the process, another thread could take it while this
        // one takes the terminal again.)
        raise(SIGSTOP)
        // Continued. A `restore()` made meanwhile (by another thread) wins: the machine
        // is idle then, and ignores this.
        _handle { machine, isForeground in machine.continued(isForeground: isForeground) }
    }

    /// Gives the terminal back: leaves the alternate screen, shows the cursor, turns
    /// autowrap on and restores the saved attributes; stops keys, signal handling and
    /// drawing through ``output``. Safe to call more than once, and from any thread.
    ///
    /// In the background, where the session does not hold the terminal, nothing is
    /// written to the terminal.
    ///
    /// - Complexity: O(1).
    public func restore() {
        _handle { machine, _ in machine.restoreRequested() }
        let sources = _sources.withLock { sources in
            defer { sources = [] }
            return sources
        }
        for handle in sources { handle.source.cancel() }
    }
}

/// A dispatch source held by a session, so it can be cancelled from any thread.
///
/// Safety of `@unchecked Sendable`: libdispatch objects are internally synchronized;
/// `resume()` and `cancel()` may be called from any thread (dispatch/source.h), and the
/// handle holds nothing but the immutable reference.
struct _SourceHandle: @unchecked Sendable {
    let source: any DispatchSourceProtocol
}

/// Why a terminal session could not start.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The descriptor is not a terminal (input redirected from a file or pipe).
    case notATerminal(fileDescriptor: Int32)
    /// `tcgetattr` failed.
    case cannotReadAttributes(fileDescriptor: Int32, errno: Int32)
    /// `tcsetattr` failed.
    case cannotSetAttributes(fileDescriptor: Int32, errno: Int32)

    /// What went wrong, naming the descriptor and, for a failed call, the system's reason.
    ///
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .notATerminal(let descriptor):
            "file descriptor \(descriptor) is not a terminal"
        case .cannotReadAttributes(let descriptor, let code):
            "cannot read the terminal attributes of file descriptor \(descriptor): \(String(cString: strerror(code)))"
        case .cannotSetAttributes(let descriptor, let code):
            "cannot set the terminal attributes of file descriptor \(descriptor): \(String(cString: strerror(code)))"
        }
    }
}
