/** The native spawn helper's C program, part 4 of 4: the request framing, signals, reaping and the poll loop. */
export const NATIVE_MAIN = String.raw`/* Parses one complete request at the start of in_buf; returns the bytes it used, 0 if incomplete. */
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
