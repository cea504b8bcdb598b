import Foundation
import Testing
import TrackcastCore

@Suite("Where the library lives")
struct LibraryLocationTests {
    @Test("the option wins over the environment")
    func optionFirst() {
        let url = LibraryLocation.resolve(option: "/srv/lib", environment: ["TRACKCAST_LIBRARY_DIR": "/env/lib",
                                                                             "XDG_DATA_HOME": "/xdg"])
        #expect(url.path == "/srv/lib")
    }

    @Test("then TRACKCAST_LIBRARY_DIR, then XDG_DATA_HOME, then ~/.local/share")
    func fallbacks() {
        #expect(LibraryLocation.resolve(option: nil, environment: ["TRACKCAST_LIBRARY_DIR": "/env/lib",
                                                                    "XDG_DATA_HOME": "/xdg"]).path == "/env/lib")
        #expect(LibraryLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]).path
                == "/xdg/trackcast")
        #expect(LibraryLocation.resolve(option: nil, environment: ["HOME": "/home/u"]).path
                == "/home/u/.local/share/trackcast")
    }

    @Test("relative paths are taken from the current directory; a relative XDG_DATA_HOME is ignored")
    func relativePaths() {
        #expect(LibraryLocation.resolve(option: "lib", environment: [:], currentDirectory: "/work").path == "/work/lib")
        #expect(LibraryLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "data", "HOME": "/home/u"]).path
                == "/home/u/.local/share/trackcast")
    }
}
