#include "trackcast-video.h"

#include <epoxy/gl.h>

/* YUV → RGB on the GPU, in a GL context of GDK's own (made from the display,
 * so it shares textures with the context GTK's GL renderer draws with).
 *
 * Each frame's three planes are uploaded as one-channel textures at their
 * decoded size; one draw of a full-frame quad through a fragment shader
 * samples them, applies the frame's colour matrix and range, and writes RGBA
 * into a texture at the size the picture is drawn (scaling folded into the
 * same pass). That texture goes to GTK as a GdkGLTexture, which the GL
 * renderer draws without copying. Main thread only: GDK's GL contexts are
 * made current per thread, and GTK may only be used there. */

typedef struct {
    GLuint id;
    int width, height;
} OutputTexture;

struct _TcGLFrameConverter {
    int refs;
    GdkGLContext *context;
    GLuint program, vertex_array, framebuffer;
    GLint colour_matrix, offset;
    GLuint planes[3];
    int plane_width[3], plane_height[3];
    gboolean has_frame;
    float matrix[9], offsets[3];
    /* Output textures GTK has let go of, kept for reuse: allocating one per
     * frame would clear megabytes a frame. */
    GArray *free_textures;
};

static const char *vertex_source =
    "out vec2 position_in_frame;\n"
    "void main() {\n"
    "    // A triangle strip over the whole target: corners (0,0) (1,0) (0,1) (1,1).\n"
    "    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
    "    position_in_frame = corner;\n"
    "    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

/* The frame's first row is at texture coordinate 0 and ends up in the
 * target's first row, which is the top of a GdkGLTexture: no flip needed. */
static const char *fragment_source =
    "in vec2 position_in_frame;\n"
    "out vec4 colour;\n"
    "uniform sampler2D luma;\n"
    "uniform sampler2D blue_difference;\n"
    "uniform sampler2D red_difference;\n"
    "uniform mat3 colour_matrix;\n"
    "uniform vec3 offset;\n"
    "void main() {\n"
    "    vec3 yuv = vec3(texture(luma, position_in_frame).r,\n"
    "                    texture(blue_difference, position_in_frame).r,\n"
    "                    texture(red_difference, position_in_frame).r);\n"
    "    colour = vec4(clamp(colour_matrix * (yuv - offset), 0.0, 1.0), 1.0);\n"
    "}\n";

static GLuint compile(GLenum kind, const char *header, const char *source) {
    GLuint shader = glCreateShader(kind);
    const char *sources[] = {header, source};
    glShaderSource(shader, 2, sources, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        g_warning("video: GL shader does not compile: %s", log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

static GLuint link_program(gboolean es) {
    /* GLSL 1.50 (desktop GL 3.2 core, GDK's minimum) or GLSL ES 3.00. */
    const char *header = es ? "#version 300 es\nprecision mediump float;\n" : "#version 150\n";
    GLuint vertex = compile(GL_VERTEX_SHADER, header, vertex_source);
    GLuint fragment = compile(GL_FRAGMENT_SHADER, header, fragment_source);
    if (vertex == 0 || fragment == 0) {
        if (vertex) glDeleteShader(vertex);
        if (fragment) glDeleteShader(fragment);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vertex);
    glAttachShader(program, fragment);
    glLinkProgram(program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

/* Makes our context current, remembering whose was, so GTK's own GL work
 * (which may be in progress around a callback) finds its context again. */
static GdkGLContext *enter(TcGLFrameConverter *self) {
    GdkGLContext *previous = gdk_gl_context_get_current();
    if (previous != NULL) g_object_ref(previous);
    gdk_gl_context_make_current(self->context);
    return previous;
}

static void leave(GdkGLContext *previous) {
    if (previous != NULL) {
        gdk_gl_context_make_current(previous);
        g_object_unref(previous);
    } else {
        gdk_gl_context_clear_current();
    }
}

TcGLFrameConverter *tc_gl_frame_converter_new(char **why_not) {
    GdkDisplay *display = gdk_display_get_default();
    if (display == NULL) {
        if (why_not) *why_not = g_strdup("no display");
        return NULL;
    }
    GError *error = NULL;
    GdkGLContext *context = gdk_display_create_gl_context(display, &error);
    if (context == NULL || !gdk_gl_context_realize(context, &error)) {
        if (why_not) *why_not = g_strdup(error ? error->message : "no GL context");
        g_clear_error(&error);
        g_clear_object(&context);
        return NULL;
    }
    TcGLFrameConverter *self = g_new0(TcGLFrameConverter, 1);
    self->refs = 1;
    self->context = context;
    self->free_textures = g_array_new(FALSE, FALSE, sizeof(OutputTexture));
    /* GDK knows the version only once the context has been current. */
    GdkGLContext *previous = enter(self);
    int major = 0, minor = 0;
    gdk_gl_context_get_version(context, &major, &minor);
    gboolean es = gdk_gl_context_get_use_es(context);
    /* One-channel textures, vertex IDs and vertex arrays need GL 3.2 or GLES 3.0. */
    if (major < 3 || (!es && major == 3 && minor < 2)) {
        leave(previous);
        if (why_not) *why_not = g_strdup_printf("GL %d.%d is too old", major, minor);
        tc_gl_frame_converter_unref(self);
        return NULL;
    }
    self->program = link_program(es);
    if (self->program != 0) {
        glUseProgram(self->program);
        glUniform1i(glGetUniformLocation(self->program, "luma"), 0);
        glUniform1i(glGetUniformLocation(self->program, "blue_difference"), 1);
        glUniform1i(glGetUniformLocation(self->program, "red_difference"), 2);
        self->colour_matrix = glGetUniformLocation(self->program, "colour_matrix");
        self->offset = glGetUniformLocation(self->program, "offset");
        glGenVertexArrays(1, &self->vertex_array);
        glGenFramebuffers(1, &self->framebuffer);
        glGenTextures(3, self->planes);
        for (int i = 0; i < 3; i++) {
            glBindTexture(GL_TEXTURE_2D, self->planes[i]);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        }
    }
    leave(previous);
    if (self->program == 0) {
        if (why_not) *why_not = g_strdup("the YUV shader does not compile");
        tc_gl_frame_converter_unref(self);
        return NULL;
    }
    return self;
}

TcGLFrameConverter *tc_gl_frame_converter_ref(TcGLFrameConverter *self) {
    self->refs++;
    return self;
}

void tc_gl_frame_converter_unref(TcGLFrameConverter *self) {
    if (--self->refs > 0) return;
    GdkGLContext *previous = enter(self);
    for (guint i = 0; i < self->free_textures->len; i++)
        glDeleteTextures(1, &g_array_index(self->free_textures, OutputTexture, i).id);
    if (self->planes[0]) glDeleteTextures(3, self->planes);
    if (self->framebuffer) glDeleteFramebuffers(1, &self->framebuffer);
    if (self->vertex_array) glDeleteVertexArrays(1, &self->vertex_array);
    if (self->program) glDeleteProgram(self->program);
    leave(previous);
    g_array_unref(self->free_textures);
    g_object_unref(self->context);
    g_free(self);
}

/* The colour matrix from Y'CbCr to R'G'B' for the frame's matrix
 * coefficients and range (column-major, as GL takes it). */
static void set_colour_matrix(TcGLFrameConverter *self, const GstVideoInfo *info) {
    double kr = 0, kb = 0;
    if (!gst_video_color_matrix_get_Kr_Kb(info->colorimetry.matrix, &kr, &kb)) {
        /* Unknown: what players assume, SD as BT.601 and HD as BT.709. */
        gboolean hd = GST_VIDEO_INFO_HEIGHT(info) > 576;
        kr = hd ? 0.2126 : 0.299;
        kb = hd ? 0.0722 : 0.114;
    }
    double kg = 1 - kr - kb;
    gboolean full = info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
    double luma_scale = full ? 1 : 255.0 / 219;
    double chroma_scale = full ? 1 : 255.0 / 224;
    float matrix[9] = {
        /* the Y column: R, G, B */
        (float)luma_scale, (float)luma_scale, (float)luma_scale,
        /* Cb */
        0, (float)(-2 * kb * (1 - kb) / kg * chroma_scale), (float)(2 * (1 - kb) * chroma_scale),
        /* Cr */
        (float)(2 * (1 - kr) * chroma_scale), (float)(-2 * kr * (1 - kr) / kg * chroma_scale), 0,
    };
    memcpy(self->matrix, matrix, sizeof matrix);
    self->offsets[0] = full ? 0 : 16.0f / 255;
    self->offsets[1] = self->offsets[2] = 128.0f / 255;
}

gboolean tc_gl_frame_converter_upload(TcGLFrameConverter *self, GstVideoFrame *frame) {
    if (GST_VIDEO_FRAME_FORMAT(frame) != GST_VIDEO_FORMAT_I420) return FALSE;
    GdkGLContext *previous = enter(self);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int i = 0; i < 3; i++) {
        int width = GST_VIDEO_FRAME_COMP_WIDTH(frame, i);
        int height = GST_VIDEO_FRAME_COMP_HEIGHT(frame, i);
        glBindTexture(GL_TEXTURE_2D, self->planes[i]);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, GST_VIDEO_FRAME_PLANE_STRIDE(frame, i));
        const void *data = GST_VIDEO_FRAME_PLANE_DATA(frame, i);
        if (width != self->plane_width[i] || height != self->plane_height[i]) {
            glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, data);
            self->plane_width[i] = width;
            self->plane_height[i] = height;
        } else {
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RED, GL_UNSIGNED_BYTE, data);
        }
    }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    set_colour_matrix(self, &frame->info);
    self->has_frame = TRUE;
    leave(previous);
    return TRUE;
}

typedef struct {
    TcGLFrameConverter *converter;
    OutputTexture texture;
} ReleasedTexture;

/* GDK calls this when GTK no longer draws the texture: keep it for reuse. */
static void release_texture(gpointer data) {
    ReleasedTexture *released = data;
    g_array_append_val(released->converter->free_textures, released->texture);
    tc_gl_frame_converter_unref(released->converter);
    g_free(released);
}

static OutputTexture take_output_texture(TcGLFrameConverter *self, int width, int height) {
    for (guint i = 0; i < self->free_textures->len; i++) {
        OutputTexture texture = g_array_index(self->free_textures, OutputTexture, i);
        if (texture.width == width && texture.height == height) {
            g_array_remove_index_fast(self->free_textures, i);
            return texture;
        }
    }
    /* None of this size: the others are of a size no longer drawn. */
    for (guint i = 0; i < self->free_textures->len; i++)
        glDeleteTextures(1, &g_array_index(self->free_textures, OutputTexture, i).id);
    g_array_set_size(self->free_textures, 0);
    OutputTexture texture = {0, width, height};
    glGenTextures(1, &texture.id);
    glBindTexture(GL_TEXTURE_2D, texture.id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    return texture;
}

GdkTexture *tc_gl_frame_converter_render(TcGLFrameConverter *self, int width, int height) {
    if (!self->has_frame || width <= 0 || height <= 0) return NULL;
    GdkGLContext *previous = enter(self);
    OutputTexture target = take_output_texture(self, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, self->framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.id, 0);
    glViewport(0, 0, width, height);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glUseProgram(self->program);
    glUniformMatrix3fv(self->colour_matrix, 1, GL_FALSE, self->matrix);
    glUniform3fv(self->offset, 1, self->offsets);
    for (int i = 0; i < 3; i++) {
        glActiveTexture(GL_TEXTURE0 + i);
        glBindTexture(GL_TEXTURE_2D, self->planes[i]);
    }
    glBindVertexArray(self->vertex_array);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
    glActiveTexture(GL_TEXTURE0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* GTK 4.8 takes no fence with a GL texture (4.10 does), and its renderer
     * samples it from another context: the drawing must be finished before
     * the texture is handed over, or GTK could draw half a frame. */
    glFinish();
    leave(previous);

    ReleasedTexture *released = g_new0(ReleasedTexture, 1);
    released->converter = tc_gl_frame_converter_ref(self);
    released->texture = target;
    return gdk_gl_texture_new(self->context, target.id, width, height, release_texture, released);
}

const char *tc_gl_frame_converter_renderer(TcGLFrameConverter *self) {
    GdkGLContext *previous = enter(self);
    const char *name = (const char *)glGetString(GL_RENDERER);
    leave(previous);
    return name;
}
