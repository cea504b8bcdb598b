import Foundation

/// The JSON that `trackcast feed parse FILE --json` prints: a flat, stable
/// projection of `Feed` for scripts. Dates are Unix seconds, durations and
/// chapter starts seconds, every key is present (`null` when unknown), and
/// keys come in a fixed order, title first and episodes last.
public struct FeedJSON: Sendable {
    public let feed: Feed

    public init(_ feed: Feed) {
        self.feed = feed
    }

    /// Pretty-printed, ending in a newline.
    public var text: String {
        String(decoding: utf8, as: UTF8.self)
    }

    /// `text` as UTF-8.
    public func data() -> Data {
        Data(utf8)
    }

    /// `text` as UTF-8, made without the string: for a large feed, checking
    /// the string's UTF-8 again costs a good part of writing it.
    public var utf8: [UInt8] {
        document.utf8
    }

    /// `utf8`, safe to write to a terminal as it stands.
    public var document: TerminalSafeJSON {
        TerminalSafeJSON(estimatedSize: { [feed] in feed.episodes.reduce(4_096) { $0 + Self.estimatedSize(of: $1) } }) { [feed] json in
            json.object { json in
                json.key("title"); json.string(feed.title)
                json.key("link"); json.string(feed.link?.absoluteString)
                json.key("description"); json.string(feed.description)
                json.key("author"); json.string(feed.author)
                json.key("language"); json.string(feed.language)
                json.key("image"); json.string(feed.imageURL?.absoluteString)
                json.key("new_feed_url"); json.string(feed.newFeedURL?.absoluteString)
                json.key("locked"); json.bool(feed.isLocked)
                json.key("funding")
                json.array(feed.funding) { json, funding in
                    json.object { json in
                        json.key("url"); json.string(funding.url.absoluteString)
                        json.key("title"); json.string(funding.title)
                    }
                }
                json.key("episodes")
                json.array(feed.episodes, Self.write)
            }
        }
    }

    /// A little over what `write` makes of `episode` (its keys, indentation,
    /// links and numbers as they come out on the realistic corpus), so that the
    /// writer's room is made once: estimated short, it was grown by doubling
    /// near the end, which copied the JSON so far and zeroed as much again.
    private static func estimatedSize(of episode: FeedEpisode) -> Int {
        640 + (episode.description?.utf8.count ?? 0) + (episode.title?.utf8.count ?? 0)
            + 180 * episode.enclosures.count + 200 * episode.transcripts.count
            + episode.chapters.reduce(0) { $0 + 150 + $1.title.utf8.count }
            + episode.persons.reduce(0) { $0 + 240 + $1.name.utf8.count }
    }

    private static func write(_ json: inout JSONWriter, _ episode: borrowing FeedEpisode) {
        json.object { json in
            json.key("guid"); json.string(episode.guid)
            json.key("title"); json.string(episode.title)
            json.key("published"); json.integer(episode.published?.unixSeconds)
            json.key("duration"); json.number(episode.duration)
            json.key("link"); json.string(episode.storedLink?.absoluteString)
            json.key("description"); json.string(episode.description)
            json.key("image"); json.string(episode.storedImageURL?.absoluteString)
            json.key("season"); json.integer(episode.season.map(Int64.init))
            json.key("number"); json.integer(episode.number.map(Int64.init))
            json.key("type"); json.string(episode.episodeType?.rawValue)
            json.key("explicit"); json.bool(episode.isExplicit)
            json.key("enclosures")
            json.array(episode.enclosures) { json, enclosure in
                json.object { json in
                    json.key("url"); json.string(enclosure.storedURL.absoluteString)
                    json.key("mime_type"); json.string(enclosure.mimeType)
                    json.key("length"); json.integer(enclosure.length)
                }
            }
            json.key("chapters")
            json.array(episode.chapters) { json, chapter in
                json.object { json in
                    json.key("start"); json.number(chapter.start)
                    json.key("title"); json.string(chapter.title)
                    json.key("url"); json.string(chapter.storedURL?.absoluteString)
                    json.key("image"); json.string(chapter.storedImageURL?.absoluteString)
                }
            }
            json.key("chapters_url"); json.string(episode.storedChaptersURL?.absoluteString)
            json.key("transcripts")
            json.array(episode.transcripts) { json, transcript in
                json.object { json in
                    json.key("url"); json.string(transcript.storedURL.absoluteString)
                    json.key("type"); json.string(transcript.type)
                    json.key("language"); json.string(transcript.language)
                }
            }
            json.key("persons")
            json.array(episode.persons) { json, person in
                json.object { json in
                    json.key("name"); json.string(person.name)
                    json.key("role"); json.string(person.role)
                    json.key("href"); json.string(person.storedHref?.absoluteString)
                    json.key("image"); json.string(person.storedImageURL?.absoluteString)
                }
            }
        }
    }
}
