import ListTestSupport
import Testing

/// The `.cpuBound` trait that keeps long property tests off the cooperative pool.
@Suite struct CPUBoundTraitTests {
    @Test("a test marked cpuBound runs on a thread set aside for long tests, before and after it suspends", .cpuBound)
    func runsOnASetAsideThread() async {
        #expect(CPUBound.isOnASetAsideThread)
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
        #expect(CPUBound.isOnASetAsideThread)
    }

    @Test("an unmarked test runs on the cooperative pool")
    func unmarkedTestsRunOnThePool() async {
        #expect(!CPUBound.isOnASetAsideThread)
    }
}
