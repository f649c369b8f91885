import Benchmark

/// Every performance scenario of the list, with the floors and baselines they are
/// compared against, registered in one benchmark executable so that one run measures
/// them all under the same conditions. `Benchmarks/run.sh` turns the results into the
/// table of ratios.
///
/// Each file registers one area:
/// - `Floors.swift`: `floor-merge-walk-1m`, `floor-sort-1m`, `floor-dictionary-100k`.
/// - `Baselines.swift`: `t21-style`, `stdlib-difference`.
/// - `BatchScenarios.swift`: `sorted1m-batch`, `single-upsert-1m`.
/// - `SectionedScenarios.swift`: `sectioned-sorted1m-batch`, `sectioned-single-upsert-1m`.
/// - `ReplaceScenarios.swift`: `replace-100k`, `replace-100k-updates`,
///   `coalesced-replace-100k`, `two-batch-replace-100k`, `resort-100k`.
/// - `LoadScenarios.swift`: `bulk-load-1m`, `concurrent-upserts`.
/// - `WindowScenarios.swift`: `window-scroll-1m`.
/// - `FanOutScenarios.swift`: `fanout-1000-lists-paced`, `fanout-1000-lists-back-to-back`,
///   `edit-flush-50-rows`.
/// - `References.swift`: `copy-touched-leaves-1m`, `find-changed-rows-1m` and
///   `dispatch-hand-offs`, the parts of `sorted1m-batch` and `single-upsert-1m` that the
///   list's structure fixes.
let benchmarks: @Sendable () -> Void = {
    registerFloors()
    registerBaselines()
    registerBatchScenarios()
    registerSectionedScenarios()
    registerReplaceScenarios()
    registerLoadScenarios()
    registerWindowScenarios()
    registerFanOutScenarios()
    registerReferences()
}
