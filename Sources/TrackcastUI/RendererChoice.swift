import Bindings
import Foundation

/// Chooses GTK's renderer for video before the first window is made.
///
/// On a GPU, GTK's GL renderer uploads and scales frames cheaply. On
/// software GL (Mesa's llvmpipe: Xvfb, virtual machines, no GPU driver) it
/// redraws the window through an emulated GPU, and measured here it showed
/// under a fifth of a 1080p30 clip's frames where the cairo renderer showed
/// nearly all, for the same CPU (README, benchmarks). So cairo is chosen
/// when the GL renderer is a software one, and GL otherwise; the user's
/// own GSK_RENDERER always wins.
enum RendererChoice {
    private static let softwareRenderers = ["llvmpipe", "softpipe", "swrast"]

    /// Call after GTK is initialised and before any window is shown: GTK
    /// reads GSK_RENDERER once, when it makes its first renderer.
    @MainActor
    static func apply() {
        guard ProcessInfo.processInfo.environment["GSK_RENDERER"] == nil else { return }
        let renderer = GLRenderer.name
        let software = renderer.map { name in softwareRenderers.contains { name.lowercased().contains($0) } } ?? true
        if software { setenv("GSK_RENDERER", "cairo", 1) }
        Log.debug("renderer: \(software ? "cairo" : "gl") (GL: \(renderer ?? "none"))")
    }
}
