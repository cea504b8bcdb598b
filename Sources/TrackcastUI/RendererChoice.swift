import Bindings
import Foundation

/// Chooses, once, before the first window is made, how video reaches the
/// screen: GTK's renderer, and where frames are converted from YUV.
///
/// With GL (a GPU, or Mesa's llvmpipe as under Xvfb): GTK's GL renderer,
/// and frames converted and scaled by a shader into GL textures it draws
/// without copying. Measured here, on llvmpipe, that costs less CPU per
/// frame than converting on the CPU and drawing with cairo (README,
/// benchmarks). Without GL, or with `TRACKCAST_VIDEO_GPU=0`: frames are
/// converted on the CPU into memory textures, and on software GL (or none)
/// GTK draws with cairo, which copies those cheaper than software GL does.
/// A `GSK_RENDERER` of the user's own always wins; frames are converted on
/// the GPU only when it names GL.
enum RendererChoice {
    /// Set to "0" to convert video on the CPU even where GL works.
    static let environmentVariable = "TRACKCAST_VIDEO_GPU"

    /// What `apply()` chose: convert video frames on the GPU.
    @MainActor private(set) static var videoOnGPU = false

    struct Choice: Equatable {
        /// The GSK_RENDERER to set; nil leaves GTK's (or the user's) own.
        var gskRenderer: String?
        var videoOnGPU: Bool
    }

    private static let softwareRenderers = ["llvmpipe", "softpipe", "swrast"]
    private static let glRendererNames = ["gl", "ngl", "opengl"]

    /// The decision, from the GL renderer GDK would use (nil: no GL), the
    /// user's GSK_RENDERER, and whether GPU conversion was turned off.
    static func choose(glRenderer: String?, userRenderer: String?, gpuTurnedOff: Bool) -> Choice {
        if let userRenderer {
            return Choice(gskRenderer: nil,
                          videoOnGPU: glRenderer != nil && !gpuTurnedOff && glRendererNames.contains(userRenderer))
        }
        guard let glRenderer else { return Choice(gskRenderer: "cairo", videoOnGPU: false) }
        if !gpuTurnedOff { return Choice(gskRenderer: "gl", videoOnGPU: true) }
        let software = softwareRenderers.contains { glRenderer.lowercased().contains($0) }
        return Choice(gskRenderer: software ? "cairo" : nil, videoOnGPU: false)
    }

    /// Call after GTK is initialised and before any window is shown: GTK
    /// reads GSK_RENDERER once, when it makes its first renderer.
    @MainActor
    static func apply() {
        let environment = ProcessInfo.processInfo.environment
        let renderer = GLRenderer.name
        let choice = choose(glRenderer: renderer, userRenderer: environment["GSK_RENDERER"],
                            gpuTurnedOff: environment[environmentVariable] == "0")
        if let gskRenderer = choice.gskRenderer { setenv("GSK_RENDERER", gskRenderer, 1) }
        videoOnGPU = choice.videoOnGPU
        Log.debug("renderer: \(environment["GSK_RENDERER"] ?? choice.gskRenderer ?? "GTK's default"), "
                  + "video converted on the \(choice.videoOnGPU ? "GPU" : "CPU") (GL: \(renderer ?? "none"))")
    }
}
