import Foundation
import Testing

/// What some tests need from the machine that a machine may lawfully lack,
/// each checked once. A test that needs what is missing is skipped with the
/// reason (`.enabled(if:_:)`, `.needs(_:)`), which Swift Testing prints and
/// meson-helpers/test counts at the end: never failed for the machine's sake,
/// never passed without running.
public enum MachineCapabilities {
    /// Whether an unprivileged process may make a user and mount namespace
    /// (`unshare -rm`). Kernels and security modules may forbid it
    /// (kernel.unprivileged_userns_clone=0, AppArmor's
    /// restrict_unprivileged_userns, a container's seccomp profile).
    public static let userNamespaces: Bool = {
        guard let process = try? ChildProcess(URL(fileURLWithPath: "/usr/bin/unshare"), arguments: ["-rm", "/bin/true"])
        else { return false }
        return process.waitUntilExit() == .exited(0)
    }()

    /// DejaVu Sans, the one font the width tests lay text out with
    /// (`FontConfiguration.dejaVuOnly`), so that they measure the same on every
    /// machine; fonts-dejavu-core has it.
    public static let dejaVuSans = URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    public static var hasDejaVuSans: Bool { FileManager.default.isReadableFile(atPath: dejaVuSans.path) }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test or suite, naming what to install, unless every one of
    /// `tools` (programs in /usr/bin) is there. A newcomer's `swift test`
    /// without meson-helpers/deps then says what is missing rather than fail
    /// deep inside a test; after meson-helpers/deps, a skip for a tool fails
    /// meson-helpers/test.
    public static func needs(_ tools: String...) -> Self {
        let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") }
        return .enabled(if: missing.isEmpty,
                        Comment(rawValue: "needs \(missing.joined(separator: ", ")), which meson-helpers/deps installs"))
    }
}
