import Dispatch

/// Where every list's queues run: a pool of about one thread per core, shared by all
/// lists.
///
/// Each list still has its own serial diff queue, and each renderer attached without a
/// queue its own serial queue, so that one list's work and one renderer's batches keep
/// their order. But those queues *target* ``pool``, the global queue of the diff
/// queues' quality of service. A serial queue made without a target gets an
/// *overcommitting* global queue, which starts a thread for each queue that has work
/// while none is idle: a process with a thousand lists updated at once had hundreds of
/// threads, each woken for one list's few microseconds of work. The global queue is
/// width-limited instead: libdispatch runs it on about one thread per core (and starts
/// another when one of them is blocked), and a thread that finishes one list's work
/// goes on with the next queue that has work, without sleeping in between. However
/// many lists a process holds, their work runs on a few threads, and one wake drains
/// every list that has work meanwhile.
@usableFromInline enum _SharedQueues {
    /// The target of every list's diff queue and of the private queues of renderers
    /// attached without a queue.
    @inlinable static var pool: DispatchQueue { .global(qos: .userInitiated) }
}
