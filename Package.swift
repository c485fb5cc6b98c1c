// swift-tools-version: 6.1
// The compliance orchestrator: see README.md and ../shared/DESIGN.md.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "compliance-orchestrator",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "ComplianceCore", targets: ["ComplianceCore"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "Orchestrator", targets: ["Orchestrator"]),
        .library(name: "AppProfile", targets: ["AppProfile"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C libraries fixed by the user: libcurl for every outgoing request, jansson for JSON on the wire.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .target(name: "JSON", dependencies: ["CJansson"], swiftSettings: swiftSettings),
        .target(name: "ComplianceCore", dependencies: ["JSON"], swiftSettings: swiftSettings),
        .target(name: "HTTPClient", dependencies: ["CCurl"], swiftSettings: swiftSettings),
        // Runs the machines: issuer and MAM clients, the SQLite store, the per-account vault.
        .target(
            name: "Orchestrator",
            dependencies: [
                "JSON",
                "HTTPClient",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "compliance-bench",
            dependencies: ["HTTPClient", "CCurl", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "JSONTests",
            dependencies: ["JSON", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: [
                "HTTPClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ComplianceCoreTests",
            dependencies: ["ComplianceCore", "JSON", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OrchestratorTests",
            dependencies: [
                "Orchestrator",
                "JSON",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // An app's Info.plist and entitlements: read, lint and fix them as IntuneMAMConfigurator does.
        .target(name: "AppProfile", dependencies: ["ComplianceCore", "JSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "AppProfileTests",
            dependencies: ["AppProfile", "ComplianceCore", "JSON", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
    ]
)
