// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "afget",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "afget", targets: ["afget"]),
        .library(name: "AFGetKit", targets: ["AFGetKit", "AFGetSession", "AFGetRequest", "AFGetProgress", "AFGetSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
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
        // libxml2: Metalink documents are XML, read by a parser made for it (DTDs, entities and
        // the network off).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Linux calls Swift's Glibc module lacks.
        .target(name: "CPlatform"),
        // Swift ownership of libcurl handles.
        .target(name: "CurlCore", dependencies: ["CCurl"]),

        // The layers of afget, each a module, so that an arrow running back up does not build
        // (docs/architecture.md):
        // Support: failures, exit statuses, the run's stop, clocks, paths, threads, digests.
        .target(name: "AFGetSupport", dependencies: ["CurlCore", "CPlatform", "COpenSSL"]),
        // Requests and responses as values: serializers, headers, items, JSON and plist text.
        .target(name: "AFGetRequest", dependencies: ["AFGetSupport", "CurlCore"]),
        // The transfer engine: the task manager and the one curl thread that owns every libcurl handle.
        .target(
            name: "AFGetSession", dependencies: ["AFGetRequest", "AFGetSupport", "CurlCore", "CPlatform", "COpenSSL", "CZlib"]),
        // What people see: item events and the renderers that draw them.
        .target(name: "AFGetProgress", dependencies: ["AFGetSupport"]),
        // The features: downloads (resume, segments, the move into place), uploads and requests,
        // each through the one retry loop.
        .target(
            name: "AFGetKit",
            dependencies: [
                "AFGetSession", "AFGetRequest", "AFGetProgress", "AFGetSupport", "CurlCore", "CPlatform", "CLibXML2",
            ]
        ),
        // The command line: argument parsing and presentation; it builds plans and hands them over.
        .target(
            name: "AFGetCLI",
            dependencies: [
                "AFGetKit", "AFGetSession", "AFGetRequest", "AFGetProgress", "AFGetSupport", "CurlCore",
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
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                // PthreadMutex: the server's locks seen by ThreadSanitizer as afget's are.
                "AFGetSupport", "COpenSSL",
            ],
            path: "Tests/TestServer",
            exclude: ["Certificates"]
        ),
        .testTarget(name: "CurlCoreTests", dependencies: ["CurlCore"]),
        .testTarget(
            name: "AFGetKitTests",
            dependencies: ["AFGetKit", "AFGetSession", "AFGetRequest", "AFGetProgress", "AFGetSupport", "TestServer"],
            // Listings saved from real servers (Scripts/crawl-listings.sh), read by the tests from disk.
            exclude: ["Crawl/Listings"]
        ),
        .testTarget(name: "AFGetCLITests", dependencies: ["AFGetCLI"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestServer"]),
    ],
    swiftLanguageModes: [.v6]
)
