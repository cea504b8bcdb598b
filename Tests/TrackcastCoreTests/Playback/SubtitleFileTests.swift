import Foundation
import Testing
import TrackcastCore

@Suite("Subtitle files beside a video, and track names")
struct SubtitleFileTests {
    /// A folder holding `names` (empty files) and the video `film.mkv`.
    private func folder(_ names: [String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-subs-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names + ["film.mkv"] { try Data().write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    @Test("the user's language first, then the file without a language, then the first by name; others' files never")
    func choice() throws {
        let all = try folder(["film.srt", "film.de.srt", "film.pt-BR.vtt", "film2.srt", "filmography.de.srt", "film.notes.srt", "film.txt"])
        let film = all.appendingPathComponent("film.mkv")
        #expect(SubtitleFile.beside(film, preferredLanguages: ["de-AT", "en"])?.url.lastPathComponent == "film.de.srt")
        #expect(SubtitleFile.beside(film, preferredLanguages: ["pt_BR"])?.languageCode == "pt-BR")
        #expect(SubtitleFile.beside(film, preferredLanguages: ["fr"])?.url.lastPathComponent == "film.srt")
        let languagesOnly = try folder(["film.fr.srt", "film.de.vtt", "other.srt"])
        #expect(SubtitleFile.beside(languagesOnly.appendingPathComponent("film.mkv"), preferredLanguages: ["ja"])?
            .url.lastPathComponent == "film.de.vtt")
        let none = try folder(["film2.srt", "film.notes.srt", "filmography.srt"])
        #expect(SubtitleFile.beside(none.appendingPathComponent("film.mkv"), preferredLanguages: ["en"]) == nil)
        #expect(SubtitleFile.beside(URL(string: "https://example.com/film.mkv")!, preferredLanguages: ["en"]) == nil)
    }

    @Test("a track is named by its language, its title, or its number")
    func names() {
        typealias Track = TrackSelection.Track
        #expect(Track(languageCode: "en", languageName: "English").label(number: 1) == "English")
        #expect(Track(languageCode: "de", languageName: "German", title: "Kommentar").label(number: 2) == "German – Kommentar")
        #expect(Track(languageName: "English", title: "english").label(number: 1) == "English")
        #expect(Track(languageCode: "xx").label(number: 1) == "xx")
        #expect(Track(title: "Director").label(number: 3) == "Director")
        #expect(Track(title: "  ").label(number: 2) == "Track 2")
        #expect(Track().label(number: 2) == "Track 2")
    }
}
