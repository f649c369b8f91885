/// A session's ``TerminalSession/output``: writes to the session's output descriptor
/// while the session holds the terminal, and drops updates otherwise.
///
/// The write happens under the session's control lock, the lock under which the
/// session takes and gives back the terminal, so an update is either written whole
/// before the terminal is given back or not at all: none lands on the shell's screen.
final class _SessionOutput: TerminalOutput {
    private let control: LockedState<_SessionControl>
    private let destination: FileDescriptorOutput

    init(control: LockedState<_SessionControl>, fileDescriptor: Int32) {
        self.control = control
        destination = FileDescriptorOutput(fileDescriptor: fileDescriptor)
    }

    func write(_ bytes: [UInt8]) {
        control.withLock { control in
            guard control.machine.holdsTerminal else { return }
            destination.write(bytes)
        }
    }
}
