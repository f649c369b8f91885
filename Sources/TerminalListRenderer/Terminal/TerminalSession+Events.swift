import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TerminalSession {
    /// Reads keys from the input descriptor whenever it is readable.
    func _startInput(onKey: @escaping @Sendable (Key) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: inputDescriptor, queue: _queue)
        let descriptor = inputDescriptor
        source.setEventHandler { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count == 0 || (errno != EINTR && errno != EAGAIN) { source.cancel() }
                return
            }
            guard let session = self else { return }
            let (keys, isAwaiting, readNumber) = session._input.withLock { input in
                input.reads += 1
                return (input.decoder.keys(in: buffer[0..<count]), input.decoder.isAwaitingMoreInput, input.reads)
            }
            for key in keys { onKey(key) }
            // A key left incomplete that no further read completes was meant as it is.
            guard isAwaiting else { return }
            session._queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak session] in
                guard let session else { return }
                let keys = session._input.withLock { input in
                    input.reads == readNumber ? input.decoder.flushIncomplete() : []
                }
                for key in keys { onKey(key) }
            }
        }
        let handle = _SourceHandle(source: source)
        _sources.withLock { $0.append(handle) }
        source.resume()
    }

    /// Handles SIGWINCH, the termination signals and SIGTSTP on the session's queue.
    func _startSignals(onResize: @escaping @Sendable (TerminalSize) -> Void, onTerminationSignal: @escaping @Sendable (Int32) -> Void) {
        let output = outputDescriptor
        var sources: [any DispatchSourceProtocol] = []
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: _queue)
        resize.setEventHandler {
            if let size = TerminalSession.size(of: output) { onResize(size) }
        }
        sources.append(resize)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] {
            // The dispatch source sees the signal; ignoring it stops the default action.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: _queue)
            source.setEventHandler { onTerminationSignal(signalNumber) }
            source.setCancelHandler { signal(signalNumber, SIG_DFL) }
            sources.append(source)
        }
        // Stop requests from outside (`kill -TSTP`); Ctrl-Z arrives as a key in raw mode.
        signal(SIGTSTP, SIG_IGN)
        let stop = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: _queue)
        stop.setEventHandler { [weak self] in self?.suspend() }
        stop.setCancelHandler { signal(SIGTSTP, SIG_DFL) }
        sources.append(stop)
        let handles = sources.map(_SourceHandle.init)
        _sources.withLock { $0 += handles }
        for source in sources { source.resume() }
    }
}
