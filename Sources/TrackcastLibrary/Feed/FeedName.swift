/// The local names the parser knows, so that an element's meaning is a switch
/// over a small enum rather than over strings: a name is looked up here once
/// per document (`FeedSAXHandler` keeps the answer by `XMLName.index`), not at
/// every element.
enum FeedName: String {
    case alternateEnclosure, author, block, channel, chapter, chapters, complete, content, creator
    case date, description, duration, enclosure, encoded, entry, episode, episodeType, explicit
    case feed, funding, group, guid, icon, id, image, item, language, license, link, location
    case locked, logo, name, newFeedURL = "new-feed-url", newLocation, person, pubDate, published
    case redirect, rss, season, source, subtitle, summary, thumbnail, title, trailer, transcript
    case type, updated, url
}
