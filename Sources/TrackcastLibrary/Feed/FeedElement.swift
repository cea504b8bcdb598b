/// What an open XML element means to the parser. The parser keeps a stack of
/// these instead of podcastparser's path strings ("rss/channel/item/title"):
/// an element's meaning is decided once, from its parent's, when it opens, and
/// anything unrecognised silences its whole subtree.
enum FeedElement: Equatable {
    /// Below the root element.
    case document
    case ignored
    case rss
    case atomFeed
    case channel
    /// RSS `redirect`, which holds `newLocation`.
    case redirect
    case channelImage
    case feedAuthor
    case item
    case entry
    case entryAuthor
    case mediaGroup
    case pscChapters
    case alternateEnclosure
    /// An element whose text is a value of the feed.
    case feedText(FeedField)
    /// An element whose text is a value of the current episode.
    case episodeText(EpisodeField)
    /// Elements that say everything in their attributes.
    case feedLeaf(FeedLeaf)
    case episodeLeaf(EpisodeLeaf)

    enum FeedField: Equatable {
        case title, link, description, summary, subtitle, itunesAuthor, authorName, language
        case explicit, showType, newFeedURL, redirectLocation, block, complete, locked
        case funding, podcastGUID, license, location, person, trailer, imageURL, icon, logo
    }

    enum EpisodeField: Equatable {
        case title, link, guid, atomID, description, summary, mediaDescription, subtitle
        case contentEncoded, atomContent, atomSummary
        case itunesAuthor, creator, rssAuthor, authorName
        case duration, pubDate, dcDate, published, updated
        case explicit, block, episodeType, season, number, podcastSeason, podcastEpisode
        case funding, license, location, person
    }

    enum FeedLeaf: Equatable {
        case image, link
    }

    enum EpisodeLeaf: Equatable {
        case enclosure, mediaContent, mediaThumbnail, image, link, chapter, chaptersLink, transcript, source
    }

    /// `name` is `nil` for a name the parser does not know, which means nothing anywhere.
    func child(named name: FeedName?, in namespace: FeedNamespace) -> FeedElement {
        guard let name else { return .ignored }
        switch self {
        case .document:
            if namespace == .none && name == .rss { return .rss }
            if name == .feed && (namespace == .atom || namespace == .none) { return .atomFeed }
            return .ignored
        case .rss:
            guard namespace == .none else { return .ignored }
            switch name {
            case .channel: return .channel
            case .redirect: return .redirect
            default: return .ignored
            }
        case .redirect:
            return namespace == .none && name == .newLocation ? .feedText(.redirectLocation) : .ignored
        case .channel:
            if namespace == .none {
                switch name {
                case .title: return .feedText(.title)
                case .link: return .feedText(.link)
                case .description: return .feedText(.description)
                case .language: return .feedText(.language)
                case .image: return .channelImage
                case .item: return .item
                default: return .ignored
                }
            }
            if namespace == .atom && name == .link { return .feedLeaf(.link) }
            return Self.feedExtension(named: name, in: namespace)
        case .atomFeed:
            if namespace.isAtomLike {
                switch name {
                case .title: return .feedText(.title)
                case .subtitle: return .feedText(.subtitle)
                case .icon: return .feedText(.icon)
                case .logo: return .feedText(.logo)
                case .link: return .feedLeaf(.link)
                case .author: return .feedAuthor
                case .entry: return .entry
                default: return .ignored
                }
            }
            return Self.feedExtension(named: name, in: namespace)
        case .channelImage:
            return namespace == .none && name == .url ? .feedText(.imageURL) : .ignored
        case .feedAuthor:
            return namespace.isAtomLike && name == .name ? .feedText(.authorName) : .ignored
        case .item:
            if namespace == .none {
                switch name {
                case .title: return .episodeText(.title)
                case .link: return .episodeText(.link)
                case .guid: return .episodeText(.guid)
                case .description: return .episodeText(.description)
                case .pubDate: return .episodeText(.pubDate)
                case .enclosure: return .episodeLeaf(.enclosure)
                case .author: return .episodeText(.rssAuthor)
                default: return .ignored
                }
            }
            if namespace == .atom && name == .link { return .episodeLeaf(.link) }
            return Self.episodeExtension(named: name, in: namespace)
        case .entry:
            if namespace.isAtomLike {
                switch name {
                case .title: return .episodeText(.title)
                case .id: return .episodeText(.atomID)
                case .link: return .episodeLeaf(.link)
                case .content: return .episodeText(.atomContent)
                case .summary: return .episodeText(.atomSummary)
                case .published: return .episodeText(.published)
                case .updated: return .episodeText(.updated)
                case .author: return .entryAuthor
                default: return .ignored
                }
            }
            return Self.episodeExtension(named: name, in: namespace)
        case .entryAuthor:
            return namespace.isAtomLike && name == .name ? .episodeText(.authorName) : .ignored
        case .mediaGroup:
            guard namespace == .media else { return .ignored }
            switch name {
            case .content: return .episodeLeaf(.mediaContent)
            case .thumbnail: return .episodeLeaf(.mediaThumbnail)
            case .description: return .episodeText(.mediaDescription)
            default: return .ignored
            }
        case .pscChapters:
            return namespace == .podloveChapters && name == .chapter ? .episodeLeaf(.chapter) : .ignored
        case .alternateEnclosure:
            return namespace == .podcastIndex && name == .source ? .episodeLeaf(.source) : .ignored
        case .ignored, .feedText, .episodeText, .feedLeaf, .episodeLeaf:
            return .ignored
        }
    }

    /// Namespaced elements of a podcast as a whole, in RSS `channel` or Atom `feed`.
    private static func feedExtension(named name: FeedName, in namespace: FeedNamespace) -> FeedElement {
        switch namespace {
        case .itunes:
            switch name {
            case .summary: return .feedText(.summary)
            case .author: return .feedText(.itunesAuthor)
            case .explicit: return .feedText(.explicit)
            case .type: return .feedText(.showType)
            case .newFeedURL: return .feedText(.newFeedURL)
            case .block: return .feedText(.block)
            case .complete: return .feedText(.complete)
            case .image: return .feedLeaf(.image)
            default: return .ignored
            }
        case .podcastIndex:
            switch name {
            case .funding: return .feedText(.funding)
            case .locked: return .feedText(.locked)
            case .guid: return .feedText(.podcastGUID)
            case .license: return .feedText(.license)
            case .location: return .feedText(.location)
            case .person: return .feedText(.person)
            case .trailer: return .feedText(.trailer)
            default: return .ignored
            }
        default:
            return .ignored
        }
    }

    /// Namespaced elements of an episode, in RSS `item` or Atom `entry`.
    private static func episodeExtension(named name: FeedName, in namespace: FeedNamespace) -> FeedElement {
        switch namespace {
        case .itunes:
            switch name {
            case .summary: return .episodeText(.summary)
            case .subtitle: return .episodeText(.subtitle)
            case .duration: return .episodeText(.duration)
            case .explicit: return .episodeText(.explicit)
            case .author: return .episodeText(.itunesAuthor)
            case .season: return .episodeText(.season)
            case .episode: return .episodeText(.number)
            case .episodeType: return .episodeText(.episodeType)
            case .block: return .episodeText(.block)
            case .image: return .episodeLeaf(.image)
            default: return .ignored
            }
        case .content:
            return name == .encoded ? .episodeText(.contentEncoded) : .ignored
        case .media:
            switch name {
            case .content: return .episodeLeaf(.mediaContent)
            case .thumbnail: return .episodeLeaf(.mediaThumbnail)
            case .group: return .mediaGroup
            case .description: return .episodeText(.mediaDescription)
            default: return .ignored
            }
        case .podloveChapters:
            return name == .chapters ? .pscChapters : .ignored
        case .podcastIndex:
            switch name {
            case .transcript: return .episodeLeaf(.transcript)
            case .chapters: return .episodeLeaf(.chaptersLink)
            case .person: return .episodeText(.person)
            case .season: return .episodeText(.podcastSeason)
            case .episode: return .episodeText(.podcastEpisode)
            case .funding: return .episodeText(.funding)
            case .license: return .episodeText(.license)
            case .location: return .episodeText(.location)
            case .alternateEnclosure: return .alternateEnclosure
            default: return .ignored
            }
        case .dublinCore:
            switch name {
            case .creator: return .episodeText(.creator)
            case .date: return .episodeText(.dcDate)
            default: return .ignored
            }
        default:
            return .ignored
        }
    }
}
