/** The native spawn helper's C program, part 1 of 4: declarations, limits, the run table and the JSON output. */
export const NATIVE_BASE = String.raw`/*
 * hub-jobs-spawn-helper: the jobs service's native spawn helper (decision 0614).
 *
 * Starts job processes with vfork + execve: no copy of the caller's page tables, so a spawn
 * costs a fraction of what Node's fork-based spawn costs, and the resource limits, user and
 * process group are set in the child itself (no /bin/sh wrapper to exec first).
 *
 * Protocol. Requests on stdin, each a run of NUL-terminated strings:
 *   "spawn" id file dir uid gid cpu_seconds address_space_kb processes argc argv[argc] envc env[envc]
 * (uid, gid and the limits are empty strings when not set; argv excludes argv[0], which is file).
 * Replies on stdout, one JSON object per line:
 *   {"op":"spawned","id":N,"pid":P|null,"startTicks":T|null}
 *   {"op":"lines","id":N,"lines":[...]}        stdout and stderr lines, batched per loop turn
 *   {"op":"exit","id":N,"code":C|null,"signal":"SIGx"|null[,"error":"..."]}   last for an id
 * It creates the scratch directory (owned by uid/gid when set), runs the command detached in its
 * own process group, and removes the directory when the command has ended and closed its output.
 * When stdin closes (the service exited, crashed or was killed -9) or on SIGTERM it kills every
 * process group it started, removes their directories and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RUNS 4096
#define MAX_ITEMS 65536
#define MAX_REQUEST (64u << 20)
#define MAX_LINE (1u << 20)
#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

struct stream {
  int fd; /* -1 once closed */
  char *buf;
  size_t len, cap;
  int after_cr;
};

struct run {
  int used;
  char id[32];
  pid_t pid;
  char *dir;
  struct stream out[2];
  int exited, code, sig;
  char **batch; /* lines read this loop turn */
  size_t nbatch, capbatch;
};

static struct run runs[MAX_RUNS];
static int chld_pipe[2];
static char *in_buf;
static size_t in_len, in_cap;
static int devnull = -1;

static void die(const char *what) {
  fprintf(stderr, "hub-jobs-spawn-helper: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q) die("out of memory");
  return q;
}

/* ---- output ---------------------------------------------------------------------------- */

static char *out;
static size_t out_len, out_cap;

static void emit(const char *s, size_t n) {
  if (out_len + n > out_cap) {
    out_cap = (out_len + n) * 2;
    out = xrealloc(out, out_cap);
  }
  memcpy(out + out_len, s, n);
  out_len += n;
}

static void emitf(const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  emit(tmp, n < (int)sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void emit_json(const char *s, size_t n) {
  emit("\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      emit(e, 2);
    } else if (c < 0x20) {
      emitf("\\u%04x", c);
    } else {
      emit((const char *)&s[i], 1);
    }
  }
  emit("\"", 1);
}

static void flush_out(void) {
  size_t done = 0;
  while (done < out_len) {
    ssize_t w = write(1, out + done, out_len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) break; /* the service is gone: stdin's end will follow */
    done += (size_t)w;
  }
  out_len = 0;
}

static const char *signal_name(int sig) {
  static const struct { int n; const char *s; } names[] = {
    {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"}, {SIGTRAP, "SIGTRAP"},
    {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},
    {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
    {SIGCHLD, "SIGCHLD"}, {SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"}, {SIGTTIN, "SIGTTIN"},
    {SIGTTOU, "SIGTTOU"}, {SIGURG, "SIGURG"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGVTALRM, "SIGVTALRM"},
    {SIGPROF, "SIGPROF"}, {SIGWINCH, "SIGWINCH"}, {SIGIO, "SIGIO"}, {SIGSYS, "SIGSYS"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].n == sig) return names[i].s;
  return "SIGKILL";
}
`;
