// swift-tools-version:6.0
//
// The libFuzzer target of the wire codec, built apart from the app (`make fuzz`): `-sanitize=fuzzer` brings
// libFuzzer's own `main`, which clashes with the app's `@main` executable and with the test runner, so it gets its
// own package, its own scratch path (.build-fuzz) and `-parse-as-library`. It depends on the app's package (by path)
// for the invariants it checks (GameWireFuzzing: the same ones the bounded pass in `make test` checks).

import PackageDescription

let package = Package(
    name: "tictactoe-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "tictactoe", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FrameFuzzer",
            dependencies: [.product(name: "GameWireFuzzing", package: "tictactoe")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
