// swift-tools-version:6.1
//
// photolibd: per-app limited photo libraries for Linux.
//
// The target graph mirrors the architecture (see README "Layout"):
// a pure core, one system layer, the store, the protocol, the daemon
// wiring, the client and the two executables.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "photolibd",
    products: [
        // One executable for the daemon, the page's server and the portal backend, run by the name it is
        // started with (photolibd-page and photolibd-portal are links to it: scripts/link-programs).
        .executable(name: "photolibd", targets: ["photolibd"]),
        .executable(name: "photolibctl", targets: ["photolibctl"]),
    ],
    dependencies: [
        // Pinned exactly: Package.resolved cannot be committed here, so `exact:` is what makes two
        // clones build the same code. To move one, change its version here (one the mirror lists),
        // run `swift package update`, and run `make test`.
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // Sine and cosine for the core's great-circle distances (places), without importing the C library.
        .package(url: "https://github.com/apple/swift-numerics", exact: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // libinotifytools (GPL-2.0-only) is linked by photolibd-inotify alone, a C program built outside
        // SwiftPM (scripts/build-c-helpers: SwiftPM links the Swift runtime into C executables too).
        // C: the few libc entry points Swift's Glibc module does not import.
        .target(
            name: "CSystemShims",
            path: "Sources/CSystemShims",
            cSettings: [.define("_GNU_SOURCE")]
        ),

        // exiv2 (Debian libexiv2-dev) behind a small C face, so Swift needs no C++ interop. The face is
        // C++ in a library of its own, libphotolibd-metadata.so (Sources/photolibd-metadata, built by
        // scripts/build-c-helpers); this target is the face's declaration and the C that loads that library
        // when metadata is first read, so that exiv2 and the C++ runtime are not mapped at every start.
        .target(name: "CMetadata", path: "Sources/CMetadata"),

        // C: libvips (Debian libvips-dev), for the page's thumbnails, behind a small C face
        // (its options are C varargs, which Swift does not import).
        .systemLibrary(
            name: "CVips",
            path: "Sources/CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // Video frames with ffmpegthumbnailer (Debian libffmpegthumbnailer-dev), what desktop thumbnailers use.
        // ffmpegthumbnailer is loaded when the first video is shown, not linked (see thumbnail.c).
        // libheif and libde265 directly too: photolibd's HEVC decoder for libheif (heif_decoder.c).
        .target(name: "CThumbnail", dependencies: ["CVips"], path: "Sources/CThumbnail",
                linkerSettings: [.linkedLibrary("heif"), .linkedLibrary("de265")]),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // GeoNames' cities (Debian libgeonames0), loaded with dlopen when a place is first named (see CGeonames.h).
        .target(name: "CGeonames", path: "Sources/CGeonames"),
        // GLib alone (the thumbnail cache's names: MD5 and file URIs exactly as GLib writes them), for the page
        // server; loaded with dlopen by the first name made (see thumbnail_names.h).
        .target(name: "CThumbnailNames", path: "Sources/CThumbnailNames"),

        // sd-bus (Debian libsystemd-dev), in photolibd's own libphotolibd-bus.so (Sources/photolibd-bus, built by
        // scripts/build-c-helpers), loaded with dlopen by the first call (see bus_library.h). These C faces hand it each call:
        .target(name: "CBusLibrary", path: "Sources/CBusLibrary"),
        // the desktop's session bus, for notifications the person can click;
        .target(name: "CDesktopNotifications", dependencies: ["CBusLibrary"], path: "Sources/CDesktopNotifications"),
        // the file-chooser portal backend's side of it (a service, its Request objects, forwarding);
        .target(name: "CPortalBus", dependencies: ["CBusLibrary"], path: "Sources/CPortalBus"),
        // the systemd user manager's private socket, for the endpoints' socket units.
        .target(name: "CSystemdUnits", dependencies: ["CBusLibrary"], path: "Sources/CSystemdUnits"),

        // Pure model and decisions: no I/O at all.
        .target(name: "PhotoLibCore", dependencies: [.product(name: "RealModule", package: "swift-numerics")], path: "Sources/PhotoLibCore",
                swiftSettings: strict),
        // The system calls every program makes, on the C library alone: clients link this and nothing heavier.
        .target(
            name: "PhotoLibSystem",
            dependencies: ["PhotoLibCore", "CSystemShims", .product(name: "Logging", package: "swift-log")],
            path: "Sources/PhotoLibSystem",
            swiftSettings: strict
        ),
        // The desktop's buses through sd-bus (libsystemd): notifications, the portal's service, the user manager.
        .target(
            name: "PhotoLibDesktop",
            dependencies: ["PhotoLibSystem", "CBusLibrary", "CDesktopNotifications", "CPortalBus", "CSystemdUnits"],
            path: "Sources/PhotoLibDesktop",
            swiftSettings: strict
        ),
        // GeoNames' cities and names (libgeonames, GPL-3.0-only): the daemon's gazetteer, linked by the daemon alone.
        .target(
            name: "PhotoLibGeoNames",
            dependencies: ["PhotoLibCore", "PhotoLibSystem", "CGeonames"],
            path: "Sources/PhotoLibGeoNames",
            swiftSettings: strict
        ),
        // Photo and video metadata: finding and removing location (exiv2, and ISO box edits the core plans).
        .target(
            name: "PhotoLibMetadata",
            dependencies: ["PhotoLibCore", "PhotoLibSystem", "CMetadata"],
            path: "Sources/PhotoLibMetadata",
            swiftSettings: strict
        ),
        // SQLite: schema, migrations, queries.
        .target(
            name: "PhotoLibStore",
            dependencies: ["PhotoLibCore", "CZstd", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            path: "Sources/PhotoLibStore",
            swiftSettings: strict
        ),
        // Wire format: messages, framing with a length limit.
        .target(name: "PhotoLibProtocol", dependencies: ["PhotoLibCore"], path: "Sources/PhotoLibProtocol", swiftSettings: strict),
        // Where things are: flags over the TOML config file over embedded defaults.
        .target(
            name: "PhotoLibConfiguration",
            dependencies: ["PhotoLibCore", "PhotoLibSystem", .product(name: "TOMLKit", package: "TOMLKit")],
            path: "Sources/PhotoLibConfiguration",
            swiftSettings: strict
        ),
        // Read-only checks of a setup (mounts, permissions, limits) for `photolibctl doctor`.
        .target(
            name: "PhotoLibDoctor",
            dependencies: ["PhotoLibCore", "PhotoLibSystem", "PhotoLibProtocol"],
            path: "Sources/PhotoLibDoctor",
            swiftSettings: strict
        ),
        // Daemon wiring: watcher, engine (index + views), socket server.
        .target(
            name: "PhotoLibDaemon",
            dependencies: [
                "PhotoLibCore", "PhotoLibSystem", "PhotoLibStore", "PhotoLibProtocol", "PhotoLibConfiguration", "PhotoLibDoctor",
                "PhotoLibMetadata", "PhotoLibDesktop", "PhotoLibGeoNames",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/PhotoLibDaemon",
            swiftSettings: strict
        ),
        // Client library: speaks the socket protocol; never opens the database.
        .target(
            name: "PhotoLibClient",
            dependencies: ["PhotoLibProtocol", "PhotoLibSystem"],
            path: "Sources/PhotoLibClient",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "photolibctl",
            dependencies: ["PhotoLibClient", "PhotoLibConfiguration", "PhotoLibDoctor", "PhotoLibSystem", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/photolibctl",
            swiftSettings: strict
        ),

        // The person's page (SPEC §10): an admin client of the daemon serving HTTP on loopback.
        // Thumbnails are made in its decoder processes (photolibd-thumbnailer), never in it or the daemon.
        .target(
            name: "PhotoLibPage",
            dependencies: [
                "PhotoLibClient", "PhotoLibProtocol", "PhotoLibCore", "PhotoLibSystem", "PhotoLibDoctor", "CThumbnailNames",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/PhotoLibPage",
            resources: [.copy("Site")],
            // Swift 6.3.1's optimizer spends over ten minutes on this module's route closures
            // (measured here); its work is libvips' and SwiftNIO's, both optimized, so it is not optimized itself.
            swiftSettings: strict + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
        ),
        // The page server's decoder process: the only executable that links libvips and ffmpegthumbnailer.
        .executableTarget(
            name: "photolibd-thumbnailer",
            dependencies: ["CThumbnail", "PhotoLibProtocol", "PhotoLibSystem", "PhotoLibCore", "PhotoLibMetadata"],
            path: "Sources/photolibd-thumbnailer",
            swiftSettings: strict
        ),

        // The file-chooser portal backend (xdg-desktop-portal's org.freedesktop.impl.portal.FileChooser):
        // photos through the person's page, everything else forwarded to the desktop's own backend.
        .target(
            name: "PhotoLibPortal",
            dependencies: ["PhotoLibClient", "PhotoLibProtocol", "PhotoLibCore", "PhotoLibSystem", "PhotoLibDesktop",
                           .product(name: "Logging", package: "swift-log")],
            path: "Sources/PhotoLibPortal",
            swiftSettings: strict
        ),

        // The daemon, the page's server and the portal backend in one executable, each run by the name it
        // is started as: one copy of the Swift code they share (SwiftNIO, the core, the protocol) in the
        // package instead of three. Still three processes, as before; the clients (photolibctl, PhotoLibClient)
        // and the decoders (photolibd-thumbnailer) stay programs of their own, linking only what they use.
        .executableTarget(
            name: "photolibd",
            dependencies: ["PhotoLibDaemon", "PhotoLibConfiguration", "PhotoLibSystem", "PhotoLibPage", "PhotoLibPortal", "PhotoLibClient",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log")],
            path: "Sources/photolibd",
            swiftSettings: strict
        ),

        // Fuzzing: the framing and request decoding, as libFuzzer target (scripts/fuzz)
        // or, in a normal build, a tool that replays saved inputs.
        .executableTarget(
            name: "photolib-fuzz",
            dependencies: ["PhotoLibCore", "PhotoLibProtocol"],
            path: "Sources/photolib-fuzz",
            swiftSettings: strict
        ),

        // What every test target shares: the one type a test starts a child process with, and teardown off the pool.
        .target(name: "TestSupport", dependencies: ["CSystemShims"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "PhotoLibCoreTests", dependencies: ["PhotoLibCore"], swiftSettings: strict),
        .testTarget(name: "PhotoLibProtocolTests", dependencies: ["PhotoLibProtocol"], swiftSettings: strict),
        .testTarget(name: "PhotoLibStoreTests", dependencies: ["PhotoLibStore", "PhotoLibCore", "PhotoLibSystem", .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: strict),
        .testTarget(name: "PhotoLibSystemTests", dependencies: ["PhotoLibSystem", "PhotoLibCore", "TestSupport"], swiftSettings: strict),
        // The metadata reader on real files made by vips and exiftool.
        .testTarget(name: "PhotoLibMetadataTests", dependencies: ["PhotoLibMetadata", "PhotoLibSystem", "PhotoLibCore", "TestSupport"], swiftSettings: strict),
        // The daemon's executors on a temporary library and store, without starting the daemon.
        .testTarget(name: "PhotoLibDaemonTests",
                    dependencies: ["PhotoLibDaemon", "PhotoLibCore", "PhotoLibStore", "TestSupport", "PhotoLibSystem", "PhotoLibMetadata", "PhotoLibConfiguration", "PhotoLibGeoNames",
                                   "PhotoLibProtocol", .product(name: "Logging", package: "swift-log"),
                                   .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")],
                    swiftSettings: strict),
        // The page's routes are served in process and driven with Hummingbird's own test client.
        .testTarget(name: "PhotoLibPageTests",
                    dependencies: ["PhotoLibPage", "PhotoLibSystem", "PhotoLibCore", "TestSupport",
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "HummingbirdTesting", package: "hummingbird"),
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                    swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["PhotoLibSystem", "PhotoLibCore", "PhotoLibClient", "PhotoLibProtocol", "TestSupport"],
            swiftSettings: strict
        ),
    ],
    cxxLanguageStandard: .cxx17
)
