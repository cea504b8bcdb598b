import Bindings
import CGLib
import Testing

@Suite("Properties through GValue")
struct PropertyTests {
    private func makeApplication() -> ObjectRef {
        ObjectRef(g_application_new("org.trackcast.PropertyTest", G_APPLICATION_NON_UNIQUE), transfer: .full)
    }

    @Test("strings and unsigned integers round-trip")
    func roundTrip() throws {
        let application = makeApplication()
        #expect(try application.property("application-id", as: String.self) == "org.trackcast.PropertyTest")
        try application.setProperty("application-id", "org.trackcast.Renamed")
        #expect(try application.property("application-id", as: String.self) == "org.trackcast.Renamed")
        try application.setProperty("inactivity-timeout", UInt32(1500))
        #expect(try application.property("inactivity-timeout", as: UInt32.self) == 1500)
    }

    @Test("values convert between compatible types")
    func conversions() throws {
        let application = makeApplication()
        try application.setProperty("inactivity-timeout", Int32(42))
        #expect(try application.property("inactivity-timeout", as: Int64.self) == 42)
        #expect(try application.property("inactivity-timeout", as: String.self) == "42")
        // Flags read as their integer value.
        #expect(try application.property("flags", as: UInt32.self) == G_APPLICATION_NON_UNIQUE.rawValue)
    }

    @Test("an unknown property is an error, not a crash")
    func unknownProperty() {
        let application = makeApplication()
        #expect(throws: PropertyError.noSuchProperty(type: "GApplication", name: "no-such-thing")) {
            try application.setProperty("no-such-thing", true)
        }
        #expect(throws: PropertyError.noSuchProperty(type: "GApplication", name: "no-such-thing")) {
            try application.property("no-such-thing", as: Bool.self)
        }
    }

    @Test("a value of an incompatible type is rejected")
    func incompatibleType() throws {
        let application = makeApplication()
        #expect(throws: PropertyError.self) { try application.setProperty("inactivity-timeout", "soon") }
        #expect(try application.property("inactivity-timeout", as: UInt32.self) == 0, "nothing was written")
    }
}
