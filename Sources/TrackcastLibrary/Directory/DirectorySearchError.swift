/// Why a search failed, sorted as feed failures are: what a person can act on.
public enum DirectorySearchError: Error, Sendable, Equatable {
    /// No connection: no network, the name does not resolve, refused, reset.
    case offline(String)
    case timeout
    /// The service answered with an error status (401 for a wrong key).
    case httpStatus(Int)
    /// The answer was not the JSON the service documents, or too large.
    case badResponse(String)
}
