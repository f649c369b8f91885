// swift-tools-version: 6.0
import PackageDescription

/// One set of compiler settings for every target, as in the root package.
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "web-demo",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ListEngine", path: "../.."),
        .package(name: "ListEnginePostgres", path: "../../Integrations/ListEnginePostgres"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    ],
    targets: [
        // The leaderboard server: page, client script, Server-Sent Events, snapshots, pagination.
        .executableTarget(
            name: "web-demo",
            dependencies: [
                .product(name: "WebListRenderer", package: "ListEngine"),
                .product(name: "ListPagination", package: "ListEngine"),
                .product(name: "LeaderboardFixtures", package: "ListEngine"),
                .product(name: "ListEnginePostgres", package: "ListEnginePostgres"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
    ]
)
