import Foundation

/// One position for `LibraryStore.savePositions(_:)`.
public struct ResumePositionUpdate: Sendable, Equatable {
    public let key: ResumeKey
    public let position: ResumePosition

    public init(key: ResumeKey, position: TimeInterval, duration: TimeInterval?, updated: Date = Date()) {
        self.key = key
        self.position = ResumePosition(position: position, duration: duration, updated: updated)
    }
}
