// swift-tools-version: 6.0
import PackageDescription

/// One set of compiler settings for every target, as in the root package.
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ListEnginePostgres",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ListEnginePostgres", targets: ["ListEnginePostgres"]),
    ],
    dependencies: [
        .package(name: "ListEngine", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Keyset pages by SQL, and changes fanned out by LISTEN/NOTIFY to paginators.
        .target(
            name: "ListEnginePostgres",
            dependencies: [
                .product(name: "ListEngine", package: "ListEngine"),
                .product(name: "ListPagination", package: "ListEngine"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // Against a real PostgreSQL: LISTENGINE_POSTGRES_URL, or the cluster that
        // Examples/web-demo/Scripts/postgres.sh starts.
        .testTarget(
            name: "ListEnginePostgresTests",
            dependencies: [
                "ListEnginePostgres",
                .product(name: "ListEngine", package: "ListEngine"),
                .product(name: "ListPagination", package: "ListEngine"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
    ]
)
