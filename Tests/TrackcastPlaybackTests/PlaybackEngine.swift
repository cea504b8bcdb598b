import Testing

/// Every player test runs inside this suite, one at a time: they measure
/// time against the wall clock and play through real pipelines, and on a
/// two-core machine they would slow each other down if run side by side.
@Suite("Playback engine", .serialized)
struct PlaybackEngine {}
