import Dispatch
import ListEngine
import TerminalListRenderer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to file descriptors.
@Suite struct TerminalOutputTests {
    /// The CPU time the calling thread has used, in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }


    @Test("a write to a full non-blocking pipe sleeps until there is room, and every byte arrives in order")
    func fullNonBlockingPipe() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer {
            close(readEnd)
            close(writeEnd)
        }
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        let bytes = (0 ..< 1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let output = FileDescriptorOutput(fileDescriptor: writeEnd)
        let writerCPUSeconds = LockedState<Double?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let start = Self.threadCPUSeconds()
            output.write(bytes)
            writerCPUSeconds.withLock { $0 = Self.threadCPUSeconds() - start }
            done.signal()
        }
        // Nothing reads for 300 ms: the pipe fills and the writer must wait.
        usleep(300_000)
        var received: [UInt8] = []
        received.reserveCapacity(bytes.count)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while received.count < bytes.count {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[0 ..< count])
        }
        done.wait()
        #expect(received == bytes)
        // Waiting on a full pipe for 300 ms costs next to no CPU; retrying in a loop
        // would have cost about all of it.
        let cpuSeconds = try #require(writerCPUSeconds.withLock { $0 })
        #expect(cpuSeconds < 0.15, "the writer used \(cpuSeconds) s of CPU")
    }
}
