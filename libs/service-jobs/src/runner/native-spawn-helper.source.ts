/**
 * The native spawn helper's program in C (decision 0614), compiled when the service starts with
 * the machine's `cc` (native-spawn-helper.ts). A string for the same reason as the Node helper's
 * program: it ships inside every bundle and runs the same from Jest's sources.
 */
export const NATIVE_SPAWN_HELPER_SOURCE = String.raw`/*
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

/* ---- scratch directories ----------------------------------------------------------------- */

/*
 * Removes name under the directory dfd without ever following a symbolic link: every step is
 * relative to a directory opened with O_NOFOLLOW, so a job that swaps a subdirectory for a link
 * while it is being removed (its processes may outlive it) gets the link removed, never its
 * target. Depth is capped (each level holds a descriptor).
 */
static void remove_at(int dfd, const char *name, int depth) {
  if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT) return; /* a file or a link */
  int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  DIR *d = depth < 128 ? fdopendir(fd) : NULL;
  if (!d) { close(fd); return; }
  for (int pass = 0; pass < 3; pass++) { /* again while a pass found entries: they may come and go as we read */
    int found = 0;
    rewinddir(d);
    for (struct dirent *e; (e = readdir(d));) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      remove_at(dirfd(d), e->d_name, depth + 1);
      found = 1;
    }
    if (!found) break;
  }
  closedir(d);
  unlinkat(dfd, name, AT_REMOVEDIR);
}

/* Splits dir into its parent (opened, a real directory) and last component. */
static int open_parent(const char *dir, char *path, size_t size, const char **name) {
  size_t n = strlen(dir);
  if (n == 0 || n >= size) { errno = ENAMETOOLONG; return -1; }
  memcpy(path, dir, n + 1);
  while (n > 1 && path[n - 1] == '/') path[--n] = '\0';
  char *slash = strrchr(path, '/');
  if (!slash || slash[1] == '\0') { errno = EINVAL; return -1; }
  *slash = '\0';
  *name = slash + 1;
  return open(slash == path ? "/" : path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static void remove_dir(const char *dir) {
  char path[PATH_MAX];
  const char *name;
  if (!dir) return;
  int pfd = open_parent(dir, path, sizeof path, &name);
  if (pfd < 0) return;
  remove_at(pfd, name, 0);
  close(pfd);
}

/*
 * Creates the scratch directory fresh (mode 0700, owned by uid/gid when as_user) and returns it
 * opened, or -1 with errno (EPERM: its parent is not this process's own, or others may write it).
 * Missing parents are created 0755. The parent must be a real directory owned by this user and
 * writable by nobody else: otherwise another local user could put a link where the scratch
 * directory goes and have root chown or fill its target. The child enters the directory through
 * the returned descriptor, so no path is looked up again.
 */
static int make_dir(const char *dir, int as_user, uid_t uid, gid_t gid) {
  char path[PATH_MAX];
  const char *name;
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof path) { errno = ENAMETOOLONG; return -1; }
  memcpy(path, dir, n + 1);
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(path, 0755) < 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  int pfd = open_parent(dir, path, sizeof path, &name);
  if (pfd < 0) return -1;
  struct stat st;
  if (fstat(pfd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
    close(pfd);
    errno = EPERM;
    return -1;
  }
  if (mkdirat(pfd, name, 0700) < 0) {
    if (errno != EEXIST) { int e = errno; close(pfd); errno = e; return -1; }
    remove_at(pfd, name, 0); /* a leftover of a run that crashed with its helper */
    if (mkdirat(pfd, name, 0700) < 0) { int e = errno; close(pfd); errno = e; return -1; }
  }
  int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int e = errno;
  close(pfd);
  if (fd < 0) { errno = e; return -1; }
  if (as_user && fchown(fd, uid, gid) < 0) { e = errno; close(fd); remove_dir(dir); errno = e; return -1; }
  return fd;
}

/* ---- runs ------------------------------------------------------------------------------ */

static void add_line(struct run *r, const char *s, size_t n) {
  if (r->nbatch == r->capbatch) {
    r->capbatch = r->capbatch ? r->capbatch * 2 : 16;
    r->batch = xrealloc(r->batch, r->capbatch * sizeof *r->batch);
  }
  char *line = xrealloc(NULL, n + 1);
  memcpy(line, s, n);
  line[n] = '\0';
  r->batch[r->nbatch++] = line;
}

static void flush_lines(struct run *r) {
  if (r->nbatch == 0) return;
  emitf("{\"op\":\"lines\",\"id\":%s,\"lines\":[", r->id);
  for (size_t i = 0; i < r->nbatch; i++) {
    if (i) emit(",", 1);
    emit_json(r->batch[i], strlen(r->batch[i]));
    free(r->batch[i]);
  }
  emit("]}\n", 3);
  r->nbatch = 0;
}

/* Lines end at \n, \r\n or a lone \r, as Node's readline splits them. */
static void take_output(struct run *r, struct stream *s, const char *data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = data[i];
    if (c == '\n' && s->after_cr) { s->after_cr = 0; continue; }
    s->after_cr = 0;
    if (c == '\n' || c == '\r') {
      add_line(r, s->buf ? s->buf : "", s->len);
      s->len = 0;
      s->after_cr = c == '\r';
      continue;
    }
    if (s->len == s->cap) {
      s->cap = s->cap ? s->cap * 2 : 256;
      s->buf = xrealloc(s->buf, s->cap);
    }
    s->buf[s->len++] = c;
    if (s->len >= MAX_LINE) { add_line(r, s->buf, s->len); s->len = 0; }
  }
}

static void close_stream(struct run *r, struct stream *s) {
  if (s->fd < 0) return;
  close(s->fd);
  s->fd = -1;
  if (s->len > 0) add_line(r, s->buf, s->len);
  free(s->buf);
  s->buf = NULL;
  s->len = s->cap = 0;
}

static void end_run(struct run *r, const char *error) {
  flush_lines(r);
  remove_dir(r->dir);
  emitf("{\"op\":\"exit\",\"id\":%s,", r->id);
  if (error) {
    emit("\"code\":null,\"signal\":null,\"error\":", 34);
    emit_json(error, strlen(error));
    emit("}\n", 2);
  } else if (r->sig) {
    emitf("\"code\":null,\"signal\":\"%s\"}\n", signal_name(r->sig));
  } else {
    emitf("\"code\":%d,\"signal\":null}\n", r->code);
  }
  free(r->dir);
  free(r->batch);
  memset(r, 0, sizeof *r);
}

static long long start_ticks(pid_t pid) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (!p) return -1;
  p += 2; /* the state field */
  for (int field = 3; field < 22 && p; field++) {
    p = strchr(p, ' ');
    if (p) p++;
  }
  return p ? atoll(p) : -1;
}

struct request {
  const char *id, *file, *dir, *uid, *gid, *cpu, *as, *nproc;
  size_t argc, envc;
  const char **argv, **envp;
};

static void failed_with(const struct request *q, const char *msg) {
  emitf("{\"op\":\"spawned\",\"id\":%s,\"pid\":null,\"startTicks\":null}\n", q->id);
  struct run tmp = {0};
  snprintf(tmp.id, sizeof tmp.id, "%s", q->id);
  end_run(&tmp, msg); /* no directory to remove: the caller removed what it made */
}

static void failed_to_start(const struct request *q, const char *what, int err) {
  char msg[512];
  snprintf(msg, sizeof msg, "%s %s: %s", what, q->file, strerror(err));
  failed_with(q, msg);
}

static int valid_id(const char *id) {
  size_t n = strlen(id);
  if (n == 0 || n >= 32) return 0;
  for (size_t i = 0; i < n; i++) if (id[i] < '0' || id[i] > '9') return 0;
  return 1;
}

/* What the child needs, prepared before vfork: after it, the child may only call async-signal-safe functions. */
struct plan {
  int dir_fd;
  char **cand, **argv, **envp;
  size_t ncand;
  int as_user, set_cpu, set_as, set_nproc;
  uid_t uid;
  gid_t gid;
  struct rlimit cpu, as, nproc;
  int out_fd, err_fd;
  const char *not_found;
  size_t not_found_len;
  sigset_t old_mask;
  volatile int child_errno; /* set by a child that failed before execve (shared memory) */
};

static void __attribute__((noreturn)) run_child(struct plan *p) {
  for (int s = 1; s < NSIG; s++) {
    if (s == SIGKILL || s == SIGSTOP) continue;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(s, &dfl, NULL);
  }
  sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
  if (setsid() < 0) goto fail; /* its own session and process group, as Node's detached */
  if (dup2(devnull, 0) < 0 || dup2(p->out_fd, 1) < 0 || dup2(p->err_fd, 2) < 0) goto fail;
  if (p->set_cpu && setrlimit(RLIMIT_CPU, &p->cpu) < 0) goto fail;
  if (p->set_as && setrlimit(RLIMIT_AS, &p->as) < 0) goto fail;
  if (p->set_nproc && setrlimit(RLIMIT_NPROC, &p->nproc) < 0) goto fail;
  if (fchdir(p->dir_fd) < 0) goto fail;
  if (p->as_user && (setgroups(0, NULL) < 0 || setgid(p->gid) < 0 || setuid(p->uid) < 0)) goto fail;
  int last = ENOENT;
  for (size_t i = 0; i < p->ncand; i++) {
    execve(p->cand[i], p->argv, p->envp);
    if (errno != ENOENT && errno != ENOTDIR) last = errno;
  }
  /* As a shell would say it, on the job's stderr, with its exit codes. */
  (void)!write(2, p->not_found, p->not_found_len);
  (void)!write(2, last == ENOENT ? "not found\n" : "permission denied\n", last == ENOENT ? 10 : 18);
  _exit(last == ENOENT ? 127 : 126);
fail:
  p->child_errno = errno ? errno : EINVAL;
  _exit(127);
}

/* vfork in a function of its own: the child shares this stack frame until it execs or exits. */
static pid_t __attribute__((noinline)) spawn_child(struct plan *p) {
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_SETMASK, &all, &p->old_mask);
  pid_t pid = vfork();
  if (pid == 0) run_child(p);
  int e = errno;
  sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
  errno = e;
  return pid;
}

static void start(const struct request *q) {
  struct run *r = NULL;
  for (int i = 0; i < MAX_RUNS && !r; i++) if (!runs[i].used) r = &runs[i];
  if (!r) { failed_to_start(q, "spawn", EAGAIN); return; }
  int as_user = q->uid[0] != '\0';
  uid_t uid = (uid_t)strtoul(q->uid, NULL, 10);
  gid_t gid = (gid_t)strtoul(q->gid, NULL, 10);
  int dir_fd = make_dir(q->dir, as_user, uid, gid);
  if (dir_fd < 0) {
    if (errno == EPERM) failed_with(q, "the parent of the scratch directory must be a directory of the service's user that no one else may write (HUB_JOBS_WORK_DIR)");
    else failed_to_start(q, "mkdir for", errno);
    return;
  }

  /* Everything the child needs, prepared here: after vfork it may only call async-signal-safe functions. */
  const char *path = DEFAULT_PATH;
  for (size_t i = 0; i < q->envc; i++) if (strncmp(q->envp[i], "PATH=", 5) == 0) path = q->envp[i] + 5;
  size_t ncand = 0;
  char **cand = NULL;
  if (strchr(q->file, '/')) {
    cand = xrealloc(NULL, sizeof *cand);
    cand[ncand++] = strdup(q->file);
  } else {
    char *copy = strdup(path), *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
      cand = xrealloc(cand, (ncand + 1) * sizeof *cand);
      size_t n = strlen(d) + strlen(q->file) + 2;
      cand[ncand] = xrealloc(NULL, n);
      snprintf(cand[ncand++], n, "%s/%s", d, q->file);
    }
    free(copy);
  }
  char **argv = xrealloc(NULL, (q->argc + 2) * sizeof *argv);
  argv[0] = (char *)q->file;
  for (size_t i = 0; i < q->argc; i++) argv[i + 1] = (char *)q->argv[i];
  argv[q->argc + 1] = NULL;
  char **envp = xrealloc(NULL, (q->envc + 1) * sizeof *envp);
  for (size_t i = 0; i < q->envc; i++) envp[i] = (char *)q->envp[i];
  envp[q->envc] = NULL;
  struct rlimit cpu = {RLIM_INFINITY, RLIM_INFINITY}, as = {RLIM_INFINITY, RLIM_INFINITY}, nproc = {0, 0};
  int set_cpu = q->cpu[0] != '\0', set_as = q->as[0] != '\0', set_nproc = q->nproc[0] != '\0';
  if (set_cpu) cpu.rlim_cur = cpu.rlim_max = strtoull(q->cpu, NULL, 10);
  if (set_as) as.rlim_cur = as.rlim_max = strtoull(q->as, NULL, 10) * 1024;
  if (set_nproc) nproc.rlim_cur = nproc.rlim_max = strtoull(q->nproc, NULL, 10);
  char not_found[512];
  int nf = snprintf(not_found, sizeof not_found, "job: exec %s: ", q->file);
  if (nf < 0 || nf >= (int)sizeof not_found) nf = (int)sizeof not_found - 1;

  int pipes[2][2];
  if (pipe2(pipes[0], O_CLOEXEC) < 0) { int e = errno; remove_dir(q->dir); failed_to_start(q, "pipe for", e); goto out; }
  if (pipe2(pipes[1], O_CLOEXEC) < 0) {
    int e = errno; close(pipes[0][0]); close(pipes[0][1]); remove_dir(q->dir); failed_to_start(q, "pipe for", e); goto out;
  }

  struct plan plan;
  memset(&plan, 0, sizeof plan);
  plan.dir_fd = dir_fd; plan.cand = cand; plan.ncand = ncand; plan.argv = argv; plan.envp = envp;
  plan.as_user = as_user; plan.uid = uid; plan.gid = gid;
  plan.set_cpu = set_cpu; plan.cpu = cpu; plan.set_as = set_as; plan.as = as; plan.set_nproc = set_nproc; plan.nproc = nproc;
  plan.out_fd = pipes[0][1]; plan.err_fd = pipes[1][1];
  plan.not_found = not_found; plan.not_found_len = (size_t)nf;
  pid_t pid = spawn_child(&plan);
  int fork_errno = errno;
  int child_errno = plan.child_errno;
  close(pipes[0][1]);
  close(pipes[1][1]);
  if (pid < 0 || child_errno) {
    close(pipes[0][0]);
    close(pipes[1][0]);
    remove_dir(q->dir);
    failed_to_start(q, "spawn", pid < 0 ? fork_errno : child_errno);
    goto out;
  }
  memset(r, 0, sizeof *r);
  r->used = 1;
  snprintf(r->id, sizeof r->id, "%s", q->id);
  r->pid = pid;
  r->dir = strdup(q->dir);
  r->out[0].fd = pipes[0][0];
  r->out[1].fd = pipes[1][0];
  fcntl(r->out[0].fd, F_SETFL, O_NONBLOCK);
  fcntl(r->out[1].fd, F_SETFL, O_NONBLOCK);
  long long ticks = start_ticks(pid);
  if (ticks < 0) emitf("{\"op\":\"spawned\",\"id\":%s,\"pid\":%d,\"startTicks\":null}\n", r->id, (int)pid);
  else emitf("{\"op\":\"spawned\",\"id\":%s,\"pid\":%d,\"startTicks\":%lld}\n", r->id, (int)pid, ticks);
out:
  close(dir_fd);
  for (size_t i = 0; i < ncand; i++) free(cand[i]);
  free(cand);
  free(argv);
  free(envp);
}

/* Parses one complete request at the start of in_buf; returns the bytes it used, 0 if incomplete. */
static size_t parse_request(void) {
  const char *items[16];
  size_t pos = 0, n = 0;
  const char **vec[2] = {NULL, NULL};
  size_t counts[2] = {0, 0};
  struct request q;
  memset(&q, 0, sizeof q);
#define NEXT(dst) do { \
    const char *z = memchr(in_buf + pos, '\0', in_len - pos); \
    if (!z) goto incomplete; \
    (dst) = in_buf + pos; pos = (size_t)(z - in_buf) + 1; \
  } while (0)
  for (n = 0; n < 10; n++) NEXT(items[n]);
  counts[0] = strtoul(items[9], NULL, 10);
  if (counts[0] > MAX_ITEMS) goto bad;
  vec[0] = xrealloc(NULL, (counts[0] + 1) * sizeof *vec[0]);
  for (size_t i = 0; i < counts[0]; i++) NEXT(vec[0][i]);
  NEXT(items[10]);
  counts[1] = strtoul(items[10], NULL, 10);
  if (counts[1] > MAX_ITEMS) goto bad;
  vec[1] = xrealloc(NULL, (counts[1] + 1) * sizeof *vec[1]);
  for (size_t i = 0; i < counts[1]; i++) NEXT(vec[1][i]);
#undef NEXT
  if (strcmp(items[0], "spawn") != 0 || !valid_id(items[1])) goto bad;
  q.id = items[1]; q.file = items[2]; q.dir = items[3]; q.uid = items[4]; q.gid = items[5];
  q.cpu = items[6]; q.as = items[7]; q.nproc = items[8];
  q.argc = counts[0]; q.argv = vec[0]; q.envc = counts[1]; q.envp = vec[1];
  start(&q);
  free(vec[0]);
  free(vec[1]);
  return pos;
incomplete:
  free(vec[0]);
  free(vec[1]);
  if (in_len > MAX_REQUEST) goto bad;
  return 0;
bad:
  fprintf(stderr, "hub-jobs-spawn-helper: malformed request, stopping\n");
  exit(2);
}

static void kill_all_and_exit(void) {
  for (int i = 0; i < MAX_RUNS; i++) {
    if (!runs[i].used) continue;
    kill(-runs[i].pid, SIGKILL); /* the group may outlive its leader */
    remove_dir(runs[i].dir);
  }
  exit(0);
}

static volatile sig_atomic_t stop_requested;

static void on_chld(int sig) {
  (void)sig;
  int saved = errno;
  (void)!write(chld_pipe[1], "c", 1);
  errno = saved;
}

static void on_term(int sig) {
  (void)sig;
  stop_requested = 1;
  int saved = errno;
  (void)!write(chld_pipe[1], "t", 1);
  errno = saved;
}

static void reap(void) {
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    for (int i = 0; i < MAX_RUNS; i++) {
      struct run *r = &runs[i];
      if (!r->used || r->pid != pid) continue;
      r->exited = 1;
      if (WIFSIGNALED(status)) r->sig = WTERMSIG(status);
      else r->code = WEXITSTATUS(status);
    }
  }
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  signal(SIGINT, SIG_IGN); /* Ctrl-C reaches the whole group: the service stops its runs itself. */
  if (pipe2(chld_pipe, O_CLOEXEC | O_NONBLOCK) < 0) die("pipe");
  devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (devnull < 0) die("/dev/null");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_chld;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, NULL);
  sa.sa_handler = on_term;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, NULL);
  fcntl(0, F_SETFD, FD_CLOEXEC);
  fcntl(1, F_SETFD, FD_CLOEXEC);

  struct pollfd *fds = xrealloc(NULL, (2 + 2 * MAX_RUNS) * sizeof *fds);
  int *owner = xrealloc(NULL, (2 + 2 * MAX_RUNS) * sizeof *owner);
  int stdin_open = 1;
  char chunk[65536];
  for (;;) {
    if (stop_requested || !stdin_open) kill_all_and_exit();
    nfds_t n = 0;
    fds[n] = (struct pollfd){.fd = chld_pipe[0], .events = POLLIN};
    owner[n++] = -1;
    fds[n] = (struct pollfd){.fd = 0, .events = POLLIN};
    owner[n++] = -2;
    for (int i = 0; i < MAX_RUNS; i++) {
      if (!runs[i].used) continue;
      for (int k = 0; k < 2; k++) {
        if (runs[i].out[k].fd < 0) continue;
        fds[n] = (struct pollfd){.fd = runs[i].out[k].fd, .events = POLLIN};
        owner[n++] = i * 2 + k;
      }
    }
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    for (nfds_t j = 0; j < n; j++) {
      if (!fds[j].revents) continue;
      if (owner[j] == -1) {
        while (read(chld_pipe[0], chunk, sizeof chunk) > 0) {}
        reap();
      } else if (owner[j] == -2) {
        if (in_len + sizeof chunk > in_cap) {
          in_cap = (in_len + sizeof chunk) * 2;
          in_buf = xrealloc(in_buf, in_cap);
        }
        ssize_t got = read(0, in_buf + in_len, in_cap - in_len);
        if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) { stdin_open = 0; continue; }
        if (got > 0) in_len += (size_t)got;
        size_t used;
        while ((used = parse_request()) > 0) {
          memmove(in_buf, in_buf + used, in_len - used);
          in_len -= used;
        }
      } else {
        struct run *r = &runs[owner[j] / 2];
        struct stream *s = &r->out[owner[j] % 2];
        ssize_t got = read(s->fd, chunk, sizeof chunk);
        if (got > 0) take_output(r, s, chunk, (size_t)got);
        else if (got == 0 || (errno != EINTR && errno != EAGAIN)) close_stream(r, s);
      }
    }
    reap();
    for (int i = 0; i < MAX_RUNS; i++) {
      struct run *r = &runs[i];
      if (!r->used) continue;
      if (r->exited && r->out[0].fd < 0 && r->out[1].fd < 0) end_run(r, NULL);
      else flush_lines(r);
    }
    flush_out();
  }
}
`;
