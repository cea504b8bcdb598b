// swift-tools-version:6.2
// Trackcast: a podcast and video player for the Linux desktop.
// The module map and the isolation table live in docs/ARCHITECTURE.md.
import PackageDescription

let package = Package(
    name: "Trackcast",
    products: [
        .executable(name: "trackcast", targets: ["trackcast"]),
    ],
    targets: [
        // C libraries, each through pkg-config and a shim header of static
        // inline helpers for the macros Swift cannot import.
        .systemLibrary(name: "CGLib", pkgConfig: "gio-unix-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        // GTK and libadwaita in one module: libadwaita.h includes all of GTK,
        // and two modules holding the same headers leave Swift unsure which
        // one declares them (a clean build lost GTK_PHASE_CAPTURE).
        .systemLibrary(name: "CGtk", pkgConfig: "libadwaita-1",
                       providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-pbutils-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "x11",
                       providers: [.apt(["libx11-dev"])]),
        .systemLibrary(name: "CLibSecret", pkgConfig: "libsecret-1",
                       providers: [.apt(["libsecret-1-dev"])]),

        // Values meson configures (app ID, version, data and locale folders) and gettext.
        .target(name: "CPlatform"),
        // The few things that need compiled C: the libdispatch main-queue bridge.
        .target(name: "CTrackcastSupport", dependencies: ["CGLib"]),
        // Vector code for the toolkit-free library (Swift's SIMD types compile to
        // loops over the lanes on x86-64): the feed decoder's UTF-8 validation.
        // Depends on nothing but libc.
        .target(name: "CTrackcastText"),
        // GObject code Swift cannot declare: the video paintable (a GdkPaintable
        // fed by an appsink); the X11 window-state request for picture-in-picture;
        // the GL renderer's name (through libepoxy), to choose GTK's renderer;
        // the bin drawn from a recording under the cairo renderer.
        .target(name: "CTrackcastVideo", dependencies: ["CGtk", "CGStreamer", "CX11"],
                linkerSettings: [.linkedLibrary("epoxy")]),
        // GStreamer elements of our own, for listening: skip silence (which
        // keeps positions the media's own) and voice boost.
        .target(name: "CTrackcastAudio", dependencies: ["CGStreamer"], linkerSettings: [.linkedLibrary("m")]),

        // The binding layer: the only module that handles raw GLib/GTK/GStreamer pointers.
        .target(name: "Bindings",
                dependencies: ["CGLib", "CGtk", "CGStreamer", "CX11", "CLibSecret", "CTrackcastSupport", "CTrackcastVideo", "CTrackcastAudio"]),

        // Toolkit-free: app identity, library location. Builds and tests without GTK or GStreamer.
        .target(name: "TrackcastCore", dependencies: ["CPlatform"]),
        // Toolkit-free: the podcast library (feed parsing, SQLite store, refresh, OPML, downloads).
        .target(name: "TrackcastLibrary", dependencies: ["TrackcastCore", "CTrackcastText", "CSQLite", "CLibXML2", "CCurl"]),
        // GStreamer playback: PlayerController, AssetLoader, error classification.
        .target(name: "TrackcastPlayback", dependencies: ["TrackcastCore", "Bindings"]),
        // MPRIS on the session bus: media keys, GNOME Shell, the lock screen.
        .target(name: "TrackcastMPRIS", dependencies: ["TrackcastCore", "TrackcastPlayback", "Bindings"]),
        // Toolkit-free: command-line parsing and the headless commands.
        .target(name: "TrackcastCLI", dependencies: ["TrackcastCore", "TrackcastLibrary"]),
        // The GTK 4 + libadwaita application.
        .target(name: "TrackcastUI", dependencies: ["TrackcastCore", "TrackcastLibrary", "TrackcastPlayback", "TrackcastMPRIS", "Bindings"]),

        .executableTarget(name: "trackcast",
                          dependencies: ["Bindings", "TrackcastCore", "TrackcastCLI", "TrackcastPlayback", "TrackcastUI"]),
        .executableTarget(name: "trackcast-bench", dependencies: ["TrackcastCore", "TrackcastLibrary", "TrackcastPlayback", "TrackcastMPRIS", "Bindings", "TestSupport"],
                          path: "Benchmarks/trackcast-bench"),

        // A process of its own that drives g_main_loop_run from a synchronous
        // main, the way the app does; the bridge tests run it.
        .executableTarget(name: "main-loop-probe", dependencies: ["Bindings"],
                          path: "Tests/main-loop-probe"),

        // A process of its own that formats byte counts in the locale its
        // environment names; the byte-size test runs it in German.
        .executableTarget(name: "format-size-probe", dependencies: ["Bindings"],
                          path: "Tests/format-size-probe"),

        // A process of its own that changes items through one PlayerController
        // under GStreamer's leaks tracer and counts what is left; the playback
        // leak test runs it.
        .executableTarget(name: "playback-leak-probe", dependencies: ["Bindings", "TrackcastCore", "TrackcastPlayback"],
                          path: "Tests/playback-leak-probe"),

        // A process of its own that refreshes a library once with short
        // timeouts and reports its peak memory; the network fault table runs
        // it, one process per fault.
        .executableTarget(name: "refresh-fault-probe", dependencies: ["TrackcastLibrary"],
                          path: "Tests/refresh-fault-probe"),

        // A stand-in for the Background portal on the test's session bus (no
        // real portal runs outside Flatpak); the background permission test runs it.
        .executableTarget(name: "fake-background-portal", dependencies: ["CGLib"],
                          path: "Tests/fake-background-portal"),
        .executableTarget(name: "fake-network-manager", dependencies: ["CGLib"],
                          path: "Tests/fake-network-manager"),

        // What the tests share: finding built products, running processes.
        .target(name: "TestSupport", dependencies: ["Bindings"], path: "Tests/TestSupport"),
        .testTarget(name: "BindingsTests", dependencies: ["Bindings", "TestSupport", "main-loop-probe", "format-size-probe"]),
        .testTarget(name: "TrackcastCoreTests", dependencies: ["TrackcastCore", "TrackcastCLI"]),
        .testTarget(name: "TrackcastLibraryTests", dependencies: ["TrackcastLibrary", "TestSupport", "refresh-fault-probe"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "TrackcastPlaybackTests", dependencies: ["TrackcastPlayback", "TestSupport", "playback-leak-probe"]),
        .testTarget(name: "TrackcastMPRISTests", dependencies: ["TrackcastMPRIS", "TestSupport"]),
        .testTarget(name: "TrackcastAppTests", dependencies: ["TrackcastCore", "TrackcastLibrary", "TrackcastPlayback", "TrackcastMPRIS", "TrackcastUI", "Bindings", "TestSupport", "trackcast", "fake-background-portal", "fake-network-manager"]),
    ],
    swiftLanguageModes: [.v6]
)
