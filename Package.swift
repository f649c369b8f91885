// swift-tools-version: 6.0
import PackageDescription

/// One set of compiler settings for every target: Swift 6 language mode with
/// strict concurrency. `LIST_INTERNAL_CHECKS` is passed from the command line
/// (`swift test -Xswiftc -DLIST_INTERNAL_CHECKS`) to turn on `_checkInvariants()`.
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ListEngine",
    // Synchronization's `Atomic` and `Mutex` need these on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ListEngine", targets: ["ListEngine"]),
        .library(name: "ListPagination", targets: ["ListPagination"]),
        .library(name: "LeaderboardFixtures", targets: ["LeaderboardFixtures"]),
        .library(name: "TerminalListRenderer", targets: ["TerminalListRenderer"]),
        .library(name: "WebListRenderer", targets: ["WebListRenderer"]),
        .library(name: "ListEngineTesting", targets: ["ListEngineTesting"]),
        .executable(name: "list-demo", targets: ["list-demo"]),
    ],
    targets: [
        .target(name: "ListEngine", swiftSettings: sharedSwiftSettings),
        .target(name: "ListPagination", dependencies: ["ListEngine"], swiftSettings: sharedSwiftSettings),
        .target(name: "LeaderboardFixtures", dependencies: ["ListEngine", "ListPagination"], swiftSettings: sharedSwiftSettings),
        .target(name: "TerminalListRenderer", dependencies: ["ListEngine"], swiftSettings: sharedSwiftSettings),
        .target(
            name: "WebListRenderer",
            dependencies: ["ListEngine"],
            resources: [.copy("Resources/list-client.js")],
            swiftSettings: sharedSwiftSettings
        ),
        .target(name: "ListEngineTesting", dependencies: ["ListEngine", "TerminalListRenderer"], swiftSettings: sharedSwiftSettings),
        .executableTarget(
            name: "list-demo",
            dependencies: ["ListEngine", "ListPagination", "LeaderboardFixtures", "TerminalListRenderer"],
            swiftSettings: sharedSwiftSettings
        ),
        .target(name: "ListTestSupport", dependencies: ["ListEngine"], path: "Tests/ListTestSupport", swiftSettings: sharedSwiftSettings),
        .testTarget(name: "ListEngineTests", dependencies: ["ListEngine", "ListTestSupport"], swiftSettings: sharedSwiftSettings),
        .testTarget(name: "ListPaginationTests", dependencies: ["ListPagination", "LeaderboardFixtures", "ListEngineTesting", "ListTestSupport"], swiftSettings: sharedSwiftSettings),
        .testTarget(name: "LeaderboardFixturesTests", dependencies: ["LeaderboardFixtures", "ListEngineTesting", "ListTestSupport"], swiftSettings: sharedSwiftSettings),
        .testTarget(name: "TerminalListRendererTests", dependencies: ["TerminalListRenderer", "ListEngineTesting", "ListTestSupport"], swiftSettings: sharedSwiftSettings),
        .testTarget(
            name: "ListEngineTestingTests",
            dependencies: ["ListEngineTesting", "ListPagination", "TerminalListRenderer"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(name: "WebListRendererTests", dependencies: ["WebListRenderer", "ListTestSupport"], exclude: ["js"], swiftSettings: sharedSwiftSettings),
    ]
)
