import Foundation

/// What some tests need from the machine that a machine may lawfully lack,
/// each checked once. A test that needs what is missing is skipped with the
/// reason (`.enabled(if:_:)`), which Swift Testing prints and
/// meson-helpers/test counts at the end: never failed for the machine's
/// sake, never passed without running.
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
}
