// swift-tools-version:6.1
//
// `make bench` (issue 15): the app measured from outside against real anchors, apart from the app's package so that
// `make test` never builds it. Build with `--scratch-path .build-bench` (git-ignored).
//
//   bench   the driver: runs ANY `tictactoe` binary (--bin PATH) with the command-line options it has had since
//           fe810c1, and the anchors (anchors/pingpong.c, anchors/ptyframe.c, dialog, /bin/true, avahi-publish and
//           avahi-browse in the LAN lab), prints one table, writes JSON and an SVG chart
//   nio-pingpong  the C ping-pong's exchange with SwiftNIO channel handlers (and, with --tls, the app's TLS 1.2 PSK):
//           the floor of the app's own stack, measured beside the C anchor
//   Micro   ordo-one/benchmark figures for the pure code on the hot path (Minimax, a MatchSession move round, a move
//           frame through GameWire): `swift package benchmark`
import PackageDescription

/// The app's package is `..`: a path dependency is named by its directory (lowercased), whatever the checkout is called.
let app = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "tictactoe"

let package = Package(
    name: "tictactoe-bench",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(name: "bench", path: "Sources/bench"),
        .executableTarget(
            name: "nio-pingpong",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/nio-pingpong"
        ),
        .executableTarget(
            name: "Micro",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GameRules", package: app),
                .product(name: "GameProtocol", package: app),
                .product(name: "GameWire", package: app),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/Micro",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
