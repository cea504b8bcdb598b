/// The feeds issue 22 asks the parsing bench to measure on, each made by
/// `RealisticFeedWriter` from a fixed seed: the sizes and episode counts of
/// the real feeds measured there (4–13.5 MB, 1,000–3,000 episodes), in UTF-8
/// and in legacy charsets.
public enum RealisticFeedCorpus {
    public struct Member: Sendable {
        public var name: String
        public var writer: RealisticFeedWriter
    }

    public static let bench: [Member] = [
        Member(name: "long-notes", writer: RealisticFeedWriter(seed: 22_01, episodes: 1_000, notesBytes: 2_000...5_000,
                                                               persons: 1...4, keywords: 12...40)),
        Member(name: "many-episodes", writer: RealisticFeedWriter(seed: 22_02, episodes: 3_000, notesBytes: 100...300,
                                                                  persons: 1...2, keywords: 8...24)),
        Member(name: "latin1", writer: RealisticFeedWriter(seed: 22_03, episodes: 1_200, charset: .windows1252, notesBytes: 300...900,
                                                           persons: 1...4, keywords: 12...40)),
        Member(name: "greek-escaped", writer: RealisticFeedWriter(seed: 22_04, episodes: 1_000, charset: .greek, notesBytes: 200...600,
                                                                  notesInCDATA: false, persons: 1...4, keywords: 12...40)),
        Member(name: "cyrillic", writer: RealisticFeedWriter(seed: 22_05, episodes: 1_500, charset: .cyrillic, notesBytes: 400...1_000,
                                                             persons: 1...4, keywords: 12...40)),
    ]
}

extension RealisticFeedCorpus {
    /// Small members of the same kinds, whose parse is kept in
    /// Tests/TrackcastLibraryTests/Fixtures/realistic as the parser answered
    /// before it was made faster: the differential test holds it to those answers.
    /// Changing a writer or a seed here changes the feeds: regenerate the answers with the code they were made with.
    public static let differential: [Member] = [
        Member(name: "utf8-cdata", writer: RealisticFeedWriter(seed: 22_11, episodes: 10, notesBytes: 800...3_000)),
        Member(name: "utf8-escaped", writer: RealisticFeedWriter(seed: 22_12, episodes: 6, notesBytes: 400...1_500, notesInCDATA: false)),
        Member(name: "latin1", writer: RealisticFeedWriter(seed: 22_13, episodes: 8, charset: .windows1252, notesBytes: 400...1_200)),
        Member(name: "greek-escaped", writer: RealisticFeedWriter(seed: 22_14, episodes: 8, charset: .greek, notesBytes: 400...1_200,
                                                                  notesInCDATA: false)),
        Member(name: "cyrillic", writer: RealisticFeedWriter(seed: 22_15, episodes: 8, charset: .cyrillic, notesBytes: 400...1_200)),
    ]
}
