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
        .library(name: "MockAuth", targets: ["MockAuth"]),
        .executable(name: "mockauth", targets: ["mockauth"]),
        .library(name: "Daemon", targets: ["Daemon"]),
        .executable(name: "complianced", targets: ["complianced"]),
        .library(name: "ControlClient", targets: ["ControlClient"]),
        .library(name: "Flows", targets: ["Flows"]),
        .executable(name: "compliancectl", targets: ["compliancectl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
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
        .target(name: "ComplianceCore", dependencies: ["JSON"], exclude: ["README.md", "AppConfig/README.md", "DataProtection/README.md"], swiftSettings: swiftSettings),
        // The composed machine's world model and breadth-first explorer (pure), and its executable.
        .target(name: "Explorer", dependencies: ["ComplianceCore", "JSON"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "compliance-explore",
            dependencies: ["FileOutput", "Explorer", "ComplianceCore", "JSON", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        .target(name: "HTTPClient", dependencies: ["CCurl"], swiftSettings: swiftSettings),
        // What the three programs share as programs: the version, log formats (text, JSON lines),
        // systemd notification and the Prometheus registry they expose.
        .target(
            name: "ProgramSupport",
            dependencies: [
                "JSON", "ComplianceCore", "FileOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        // Runs the machines: issuer and MAM clients, the SQLite store, the per-account vault.
        .target(
            name: "Orchestrator",
            dependencies: [
                "AppProfile", "JSON",
                "HTTPClient",
                "ComplianceCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),

        // The mock Entra-ID issuer + mock MAM service (issue 3), and its executable.
        .target(
            name: "MockAuth",
            dependencies: [
                "JSON", "ProgramSupport", "ConnectionCustody",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "mocks/MockAuth",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "mockauth",
            dependencies: [
                "MockAuth", "ProgramSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "mocks/mockauth",
            swiftSettings: swiftSettings
        ),

        // The daemon: control API over the engine (library, tested in-process) and its executable.
        .target(
            name: "Daemon",
            dependencies: [
                "Orchestrator", "ComplianceCore", "JSON", "HTTPClient", "AppProfile",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "complianced",
            dependencies: [
                "AppProfile", "Daemon", "Orchestrator", "ProgramSupport", "ConnectionCustody",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),

        // Child processes with a clean signal mask (run's servers, test servers), each contained
        // by child-keeper (C: between fork and exec only async-signal-safe calls).
        .target(name: "ChildProcess", swiftSettings: swiftSettings),
        .executableTarget(name: "child-keeper"),
        // Connections a server set up and never handled, closed once it stopped (no trap at a stop).
        .target(
            name: "ConnectionCustody",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The CLI: a control-API client, the flow format and runner, and the executable.
        .target(name: "ControlClient", dependencies: ["ComplianceCore", "HTTPClient", "JSON"], swiftSettings: swiftSettings),
        .target(
            name: "Flows",
            dependencies: ["ControlClient", "ChildProcess", "HTTPClient", "JSON", "ComplianceCore", "AppProfile"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "compliancectl",
            dependencies: [
                "ControlClient", "Flows", "HTTPClient", "JSON", "AppProfile", "ComplianceCore", "ChildProcess", "ProgramSupport", "FileOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "compliance-bench",
            dependencies: [
                "AppProfile", "HTTPClient", "CCurl", "CJansson", "JSON", "MockAuth", "ComplianceCore", "Orchestrator", "Daemon", "LocalServers",
                "ChildProcess", "ConnectionCustody",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["BENCHMARKS.md"],
            swiftSettings: swiftSettings
        ),

        // Load: N virtual devices (engines) remediating against one in-process mockauth.
        .executableTarget(
            name: "compliance-load",
            dependencies: [
                "AppProfile", "Daemon", "Orchestrator", "ComplianceCore", "HTTPClient", "JSON", "MockAuth", "LocalServers", "FileOutput", "ProgramSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
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
                "HTTPClient", "MockAuth", "LocalServers", "ConnectionCustody",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ComplianceCoreTests",
            dependencies: ["ComplianceCore", "JSON", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        // Real servers on loopback for tests, the benchmark and the load run: an in-process
        // mockauth, child-process servers (mockauth, complianced) and commands run to their end.
        .target(
            name: "LocalServers",
            dependencies: [
                "MockAuth", "ChildProcess", "HTTPClient", "JSON",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The engine harnesses' shared conveniences (DaemonTests, OrchestratorTests).
        .target(
            name: "EngineTestSupport",
            dependencies: ["Orchestrator", "ComplianceCore", "LocalServers", "HTTPClient", "JSON"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "AppProfile", "Daemon", "Orchestrator", "ComplianceCore", "Explorer", "JSON", "HTTPClient", "MockAuth", "LocalServers", "ChildProcess", "ProgramSupport",
                "EngineTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OrchestratorTests",
            dependencies: [
                "AppProfile", "Orchestrator", "LocalServers", "ComplianceCore", "EngineTestSupport",
                "JSON",
                "HTTPClient",
                "MockAuth",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MockAuthTests",
            dependencies: [
                "MockAuth", "JSON", "LocalServers", "ConnectionCustody",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            exclude: ["msal_conformance.py", "msal_entra_paths.py", "msal_support.py", "rustls_probe.py"],
            swiftSettings: swiftSettings
        ),

        // The flow format (pure parsing and matching) and the CLI end to end (compliancectl →
        // complianced → mockauth, as child processes).
        .testTarget(name: "FlowsTests", dependencies: ["Flows", "JSON", "ComplianceCore", "MockAuth", "ChildProcess"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ExplorerTests",
            dependencies: ["Explorer", "ComplianceCore", "JSON", "Flows", "ChildProcess", "LocalServers"],
            swiftSettings: swiftSettings
        ),
        // Every committed fuzz input replayed through its target's check (Tests/Fuzz/Bodies).
        .testTarget(
            name: "FuzzReplayTests",
            dependencies: ["JSON", "ComplianceCore", "AppProfile", "Flows"],
            path: "Tests/Fuzz",
            exclude: ["Corpus", "Crashes", "Targets", "run.sh"],
            sources: ["Bodies", "Replay"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["ChildProcess", "ControlClient", "HTTPClient", "JSON", "LocalServers", "AppProfile"],
            exclude: ["broken-flows", "browser", "junit", "oidc-provider", "openapi"],
            swiftSettings: swiftSettings
        ),

        // An app's Info.plist and entitlements: read, lint and fix them as IntuneMAMConfigurator does.
        .target(name: "AppProfile", dependencies: ["ComplianceCore", "JSON", "FileOutput"], swiftSettings: swiftSettings),
        // Writing an output file all or nothing (temporary file, sync, rename), used by every -o.
        .target(name: "FileOutput", swiftSettings: swiftSettings),
        .testTarget(
            name: "ComplianceLoadTests",
            dependencies: ["compliance-load", "JSON", "LocalServers", "ChildProcess", "HTTPClient", "MockAuth"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppProfileTests",
            dependencies: ["AppProfile", "FileOutput", "ComplianceCore", "JSON", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
    ]
)
