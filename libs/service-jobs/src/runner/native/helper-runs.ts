/** The native spawn helper's C program, part 3 of 4: runs: output lines, exits, and the spawn itself (vfork + execve). */
export const NATIVE_RUNS = String.raw`/* ---- runs ------------------------------------------------------------------------------ */

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
`;
