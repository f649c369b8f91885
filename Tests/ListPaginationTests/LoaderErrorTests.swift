import ListEngineTesting
import ListPagination
import ListTestSupport
import Testing

/// Errors of a loader's own: not retried unless they say they are transient.
@Suite(.timeLimit(.minutes(5))) struct LoaderErrorTests {
    /// An app's own errors; only `overloaded` is transient.
    enum AppError: TransientError, Equatable {
        case unauthorized, overloaded
        var isTransient: Bool { self == .overloaded }
    }

    /// Transient by the protocol's default.
    struct RateLimited: TransientError {}

    /// An error that says nothing about itself.
    struct Unknown: Error, CustomStringConvertible {
        var description: String { "something else" }
    }

    static let threeAttempts = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2, jitter: 0)

    static func make(retry: RetryPolicy = threeAttempts) -> (Paginator<ScriptedLoader, ManualClock>, ScriptedLoader, ManualClock) {
        let clock = ManualClock(), loader = ScriptedLoader()
        let paginator = Paginator(loader: loader, loadingIndicatorDelay: .zero, retryPolicy: retry, clock: clock)
        return (paginator, loader, clock)
    }

    @Test func anErrorOfTheAppsOwnIsTriedOnceAndKeptReachable() async throws {
        let (paginator, loader, clock) = Self.make()
        paginator.loadNextPage()
        await loader.nextRequest().fail(AppError.unauthorized)
        // The first status with a failure is the answer: failed, or backing off to retry.
        let status = await paginator.waitForStatus { $0.failedAttempts > 0 }
        #expect(status.state == .failed(.loader(LoaderFailure(AppError.unauthorized))))
        #expect(status.failedAttempts == 1)
        #expect(clock.sleeperCount == 0, "no retry is scheduled")
        #expect(loader.requestedCursors == [nil])
        guard case .failed(.loader(let failure)) = status.state else { return }
        #expect(failure.error as? AppError == .unauthorized)
        #expect(failure.typeName == "AppError")
        #expect(!failure.isTransient)
    }

    @Test(arguments: [
        PaginationError(AppError.overloaded),
        PaginationError(RateLimited()),
    ])
    func anErrorThatSaysItIsTransientIsRetriedPerThePolicy(error: PaginationError) async throws {
        let (paginator, loader, clock) = Self.make()
        guard case .loader(let failure) = error else {
            Issue.record("expected a loader error, got \(error)")
            return
        }
        paginator.loadNextPage()
        await loader.nextRequest().fail(failure.error)
        await clock.waitForSleepers(count: 1)
        #expect(paginator.state == .loading)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(1))])
        clock.advance(by: .seconds(1))
        await loader.nextRequest().fail(failure.error)
        await clock.waitForSleepers(count: 1)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(3))])
        clock.advance(by: .seconds(2))
        await loader.nextRequest().fail(failure.error)
        let failed = await paginator.settle()
        #expect(failed.state == .failed(error))
        #expect(failed.failedAttempts == 3)
        #expect(loader.requestedCursors == [nil, nil, nil])
    }

    @Test func retryLoadsAFailedPageAgainWhateverThePolicySays() async throws {
        // The short type of a stored paginator, with the default policy.
        let loader = ScriptedLoader()
        let paginator: ListPaginator<TestRow, Int> = ListPaginator(loader: AnyPageLoader(loader), loadingIndicatorDelay: .zero)
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<10, next: 1)
        await paginator.settle()
        paginator.loadNextPage()
        await loader.nextRequest().fail(Unknown())
        let failed = await paginator.waitForStatus { $0.failedAttempts > 0 }
        #expect(failed.state == .failed(.loader(LoaderFailure(Unknown()))))
        #expect(failed.state != .failed(.loader(LoaderFailure(AppError.unauthorized))))
        paginator.retry()
        let retried = await loader.nextRequest()
        #expect(retried.cursor == 1)
        retried.succeed(ids: 10..<20, next: nil)
        #expect(await paginator.settle() == PaginationStatus(state: .exhausted, loadedPages: 2))
        #expect(loader.requestedCursors == [nil, 1, 1])
        #expect(await paginator.dataSource.flush().map(\.id) == Array(0..<20))
    }

    @Test func errorsAreMappedByWhatTheySayOfThemselves() {
        #expect(!PaginationError(Unknown()).isTransient)
        #expect(!PaginationError(AppError.unauthorized).isTransient)
        #expect(PaginationError(AppError.overloaded).isTransient)
        #expect(PaginationError(RateLimited()).isTransient)
        #expect(PaginationError(Unknown()).description == "something else")
        #expect(PaginationError(Unknown()).url == nil)
        // A failure thrown as it is is not wrapped again.
        let failure = LoaderFailure(AppError.overloaded)
        #expect(PaginationError(failure) == .loader(failure))
        #expect(LoaderFailure(AppError.overloaded) != LoaderFailure(AppError.unauthorized))
        #expect(RetryPolicy.default.shouldRetry(PaginationError(AppError.overloaded)))
        #expect(!RetryPolicy.default.shouldRetry(PaginationError(AppError.unauthorized)))
    }
}
