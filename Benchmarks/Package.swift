// swift-tools-version: 6.1
import PackageDescription

/// One set of compiler settings for every target, as in the root package.
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ListEngineBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ListEngine", path: ".."),
        // Without package-benchmark's default traits: its malloc interposer would put an
        // extra call and a header on every allocation of the measured code, and no
        // scenario reads the metrics it feeds.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: []),
    ],
    targets: [
        // The scenarios, floors and baselines, as package-benchmark benchmarks.
        .executableTarget(
            name: "ListEngineBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ListEngine", package: "ListEngine"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ListEngineBenchmarks",
            swiftSettings: sharedSwiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Deterministic inputs, the windowed scroll, and process memory readings, shared
        // by the targets.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "ListEngine", package: "ListEngine"),
                .product(name: "ListPagination", package: "ListEngine"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // Peak resident memory of 1,000,000 rows in a list or in an array, or of a windowed
        // paginator scrolled through 1,000,000 rows, one per process.
        .executableTarget(
            name: "memory-footprint",
            dependencies: ["BenchmarkSupport", .product(name: "ListEngine", package: "ListEngine")],
            swiftSettings: sharedSwiftSettings
        ),
        // One fan-out run (many lists given the same changes) per process, for instruction
        // counts under callgrind.
        .executableTarget(
            name: "fanout",
            dependencies: ["BenchmarkSupport"],
            swiftSettings: sharedSwiftSettings
        ),
        // A one-row update and a 1 % batch at 10⁴ … 10⁷ rows, and their plot (SVG).
        .executableTarget(
            name: "scaling",
            dependencies: ["BenchmarkSupport"],
            swiftSettings: sharedSwiftSettings
        ),
        // Reads one run's exported percentiles and prints the table of ratios.
        .executableTarget(name: "benchmark-table", swiftSettings: sharedSwiftSettings),
    ]
)
