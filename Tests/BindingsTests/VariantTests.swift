import Bindings
import Testing

@Suite("GVariant building and reading")
struct VariantTests {
    @Test("scalars keep their type and value")
    func scalars() {
        #expect(Variant(true).bool == true)
        #expect(Variant(Int32(-7)).int32 == -7)
        #expect(Variant(UInt32(7)).uint32 == 7)
        #expect(Variant(Int64(1) << 40).int64 == 1 << 40)
        #expect(Variant(UInt64.max).uint64 == .max)
        #expect(Variant(0.5).double == 0.5)
        #expect(Variant("Grüße").string == "Grüße")
        #expect(Variant(Int64(3)).typeString == "x")
        // Reading as the wrong type gives nil, never a crash.
        #expect(Variant("3").int64 == nil)
        #expect(Variant(Int64(3)).string == nil)
    }

    @Test("a vardict, the shape of D-Bus property maps")
    func vardict() throws {
        let metadata = Variant(dictionary: [
            "xesam:title": Variant("Episode 1"),
            "mpris:length": Variant(Int64(3_600_000_000)),
            "xesam:artist": Variant(strings: ["Ann", "Bob"]),
            "mpris:trackid": try #require(Variant(objectPath: "/org/trackcast/Trackcast/Track/1")),
        ])
        #expect(metadata.typeString == "a{sv}")
        #expect(metadata.description == "{'mpris:length': <int64 3600000000>, 'mpris:trackid': <objectpath '/org/trackcast/Trackcast/Track/1'>, 'xesam:artist': <['Ann', 'Bob']>, 'xesam:title': <'Episode 1'>}")
        let entries = try #require(metadata.dictionary)
        #expect(entries["xesam:title"]?.string == "Episode 1")
        #expect(entries["mpris:length"]?.int64 == 3_600_000_000)
        #expect(entries["xesam:artist"]?.children.compactMap(\.string) == ["Ann", "Bob"])
        #expect(entries["mpris:trackid"]?.string == "/org/trackcast/Trackcast/Track/1")
    }

    @Test("tuples, boxes and empty arrays")
    func containers() {
        let tuple = Variant(tuple: [Variant("/path"), Variant(Int64(5))])
        #expect(tuple.typeString == "(sx)")
        #expect(tuple.children.map(\.typeString) == ["s", "x"])
        #expect(Variant(tuple: []).typeString == "()")
        let empty = Variant(array: [], elementType: "s")
        #expect(empty.typeString == "as")
        #expect(empty.children.isEmpty)
        let boxed = Variant(boxing: Variant(0.25))
        #expect(boxed.typeString == "v")
        #expect(boxed.unboxed?.double == 0.25)
        #expect(Variant(0.25).unboxed == nil)
        #expect(Variant(tuple: [Variant(true)]) == Variant(tuple: [Variant(true)]))
    }

    @Test("invalid object paths are refused")
    func objectPaths() {
        #expect(Variant(objectPath: "not a path") == nil)
        #expect(Variant(objectPath: "/trailing/") == nil)
        #expect(Variant(objectPath: "/org/mpris/MediaPlayer2/TrackList/NoTrack")?.typeString == "o")
    }

    @Test("a variant outlives the C reference it was built from")
    func ownership() {
        var children = [Variant("a"), Variant("b")]
        let array = Variant(strings: ["a", "b"])
        children.removeAll()
        #expect(array.children.compactMap(\.string) == ["a", "b"])
    }
}
