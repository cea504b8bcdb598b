/// A refresh that did not bring a new feed to apply. (One that did goes
/// through `LibraryStore.apply(feed:fetchedFrom:etag:lastModified:)`.)
public enum RefreshOutcome: Sendable, Equatable {
    /// The server answered 304: nothing changed. The validators are the ones
    /// the response carried, if it sent new ones.
    case notModified(etag: String?, lastModified: String?)
    case failed(RefreshFailure)
}
