// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "afget",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "afget", targets: ["afget"]),
        .library(name: "AFGetKit", targets: ["AFGetKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        // libcurl itself, found through pkg-config.
        .systemLibrary(
            name: "CLibcurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Typed, non-variadic wrappers: Swift cannot call curl_easy_setopt and friends.
        .target(name: "CCurl", dependencies: ["CLibcurl"]),
        // OpenSSL's libcrypto (libcurl loads it anyway): digests for checksums and reports.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib: afget decodes gzip and deflate bodies itself, so a truncated stream or
        // trailing data is caught and a decompression bomb stays interruptible.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Linux calls Swift's Glibc module lacks.
        .target(name: "CPlatform"),
        // Swift ownership of libcurl handles.
        .target(name: "CurlCore", dependencies: ["CCurl"]),
        // Requests, the task manager, downloads and progress.
        .target(name: "AFGetKit", dependencies: ["CurlCore", "CPlatform", "COpenSSL", "CZlib"]),
        // The command line: argument parsing and wiring, no transfer logic.
        .target(
            name: "AFGetCLI",
            dependencies: [
                "AFGetKit",
                "CurlCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "afget", dependencies: ["AFGetCLI"]),

        // An HTTP server in the test process: real sockets, behaviour chosen per route.
        .target(
            name: "TestServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                "COpenSSL",
            ],
            path: "Tests/TestServer",
            exclude: ["Certificates"]
        ),
        .testTarget(name: "CurlCoreTests", dependencies: ["CurlCore"]),
        .testTarget(name: "AFGetKitTests", dependencies: ["AFGetKit", "TestServer"]),
        .testTarget(name: "AFGetCLITests", dependencies: ["AFGetCLI"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestServer"]),
    ],
    swiftLanguageModes: [.v6]
)
