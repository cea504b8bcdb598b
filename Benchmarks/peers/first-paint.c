/* Times a GUI program from spawn to the first paint of its first window, as
 * the X server sees it, so that any program can be measured the same way:
 * ours, the C floor and peers that print nothing when they are ready.
 *
 *   first-paint SETTLE_MS PROGRAM [ARGUMENT...]
 *
 * Watches the root window for a top-level window being mapped (no window
 * manager: a client's window is a child of the root; override-redirect
 * popups are ignored), then waits for the first damage to that window. Prints
 * "first-paint MS" (spawn to that damage, in milliseconds), then, SETTLE_MS
 * later, "resident MB" (the program's VmRSS, 10^6 bytes), and ends the
 * program (SIGTERM, then SIGKILL).
 */
#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double resident_mb(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *status = fopen(path, "r");
  if (!status) return -1;
  double kilobytes = -1;
  while (fgets(line, sizeof line, status))
    if (sscanf(line, "VmRSS: %lf", &kilobytes) == 1) break;
  fclose(status);
  return kilobytes < 0 ? -1 : kilobytes * 1024 / 1e6;
}

static void end_child(pid_t pid) {
  kill(pid, SIGTERM);
  for (int i = 0; i < 50; i++) {
    if (waitpid(pid, NULL, WNOHANG) == pid) return;
    usleep(20000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SETTLE_MS PROGRAM [ARGUMENT...]\n", argv[0]);
    return 2;
  }
  int settle_ms = atoi(argv[1]);
  Display *display = XOpenDisplay(NULL);
  if (!display) {
    fprintf(stderr, "first-paint: no X display\n");
    return 1;
  }
  int damage_event, damage_error;
  if (!XDamageQueryExtension(display, &damage_event, &damage_error)) {
    fprintf(stderr, "first-paint: the X server has no DAMAGE extension\n");
    return 1;
  }
  Window root = DefaultRootWindow(display);
  XSelectInput(display, root, SubstructureNotifyMask);
  XSync(display, False);

  double start = now_ms();
  pid_t pid = fork();
  if (pid == 0) {
    close(ConnectionNumber(display));
    execvp(argv[2], argv + 2);
    _exit(127);
  }

  Window window = None;
  double painted = -1;
  /* 30 s, for a program that never shows a window. */
  while (painted < 0 && now_ms() - start < 30000) {
    if (waitpid(pid, NULL, WNOHANG) == pid) {
      fprintf(stderr, "first-paint: %s exited before painting\n", argv[2]);
      return 1;
    }
    if (!XPending(display)) {
      usleep(200);
      continue;
    }
    XEvent event;
    XNextEvent(display, &event);
    if (event.type == MapNotify && window == None && !event.xmap.override_redirect &&
        event.xmap.event == root) {
      window = event.xmap.window;
      XDamageCreate(display, window, XDamageReportNonEmpty);
      XSync(display, False);
    } else if (event.type == damage_event + XDamageNotify &&
               ((XDamageNotifyEvent *)&event)->drawable == window) {
      painted = now_ms() - start;
    }
  }
  if (painted < 0) {
    fprintf(stderr, "first-paint: %s showed no painted window within 30 s\n", argv[2]);
    end_child(pid);
    return 1;
  }
  printf("first-paint %.2f\n", painted);
  fflush(stdout);
  usleep((useconds_t)settle_ms * 1000);
  printf("resident %.2f\n", resident_mb(pid));
  fflush(stdout);
  end_child(pid);
  return 0;
}
