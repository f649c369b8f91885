import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The most input one delivery drains; more is read on the next event, at once.
private let _drainLimit = 1 << 16

extension TerminalSession {
    /// A source that reads keys whenever the input descriptor is readable.
    func _makeReader() -> _SourceHandle {
        let source = DispatchSource.makeReadSource(fileDescriptor: inputDescriptor, queue: _queue)
        source.setEventHandler { [weak self] in self?._readKeys() }
        source.resume()
        return _SourceHandle(source: source)
    }

    /// Drains the input, delivers its keys in one call, and reports a failed read
    /// (EIO in the background, the end of input) to the state machine, which never
    /// ends reading for good.
    private func _readKeys() {
        var bytes: [UInt8] = []
        let isReadable = Self._readAvailable(from: inputDescriptor, into: &bytes, limit: _drainLimit)
        if !bytes.isEmpty { _deliver(bytes) }
        if !isReadable {
            _handle { machine, isForeground in machine.readFailed(isForeground: isForeground) }
        }
    }

    /// Reads everything `descriptor` has ready, without waiting for more: one read,
    /// then further reads while `poll` says more is ready, up to about `limit` bytes.
    ///
    /// - Parameters:
    ///   - descriptor: a descriptor that is readable (a read does not block).
    ///   - bytes: where the bytes read are appended.
    ///   - limit: stop reading once this many bytes are in `bytes`.
    /// - Returns: `false` when a read failed (other than EINTR or EAGAIN) or found the
    ///   end of input; `true` when the input was drained or the limit reached.
    static func _readAvailable(from descriptor: Int32, into bytes: inout [UInt8], limit: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return true
            } else {
                return false
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 0) > 0, request.revents & Int16(POLLIN) != 0 else { return true }
        }
        return true
    }

    /// Decodes `bytes` and delivers their keys in one call.
    private func _deliver(_ bytes: [UInt8]) {
        let (keys, isAwaiting, readNumber) = _input.withLock { input in
            input.reads += 1
            return (input.decoder.keys(in: bytes), input.decoder.isAwaitingMoreInput, input.reads)
        }
        guard let onKeys = _control.withLock({ $0.handlers?.onKeys }) else { return }
        if !keys.isEmpty { onKeys(keys) }
        // A key left incomplete that no further read completes was meant as it is.
        guard isAwaiting else { return }
        _queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak self] in
            guard let self else { return }
            let keys = _input.withLock { input in
                input.reads == readNumber ? input.decoder.flushIncomplete() : []
            }
            guard !keys.isEmpty, let onKeys = _control.withLock({ $0.handlers?.onKeys }) else { return }
            onKeys(keys)
        }
    }

    /// Handles SIGWINCH, the termination signals, SIGTSTP and SIGCONT on the session's
    /// queue.
    func _startSignals(onTerminationSignal: @escaping @Sendable (Int32) -> Void) {
        let output = outputDescriptor
        var sources: [any DispatchSourceProtocol] = []
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: _queue)
        resize.setEventHandler { [weak self] in
            guard let self, let size = TerminalSession.size(of: output) else { return }
            _control.withLock { $0.handlers?.onResize }?(size)
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
        // Continued, by `fg`, `bg` or `kill -CONT`: in the foreground or not any more.
        let resume = DispatchSource.makeSignalSource(signal: SIGCONT, queue: _queue)
        resume.setEventHandler { [weak self] in
            self?._handle { machine, isForeground in machine.continueSignalReceived(isForeground: isForeground) }
        }
        sources.append(resume)
        let handles = sources.map(_SourceHandle.init)
        _sources.withLock { $0 += handles }
        for source in sources { source.resume() }
    }
}
