/** The native spawn helper's C program, part 2 of 4: scratch directories: made fresh in a safe parent, removed without following links. */
export const NATIVE_DIRS = String.raw`/* ---- scratch directories ----------------------------------------------------------------- */

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
`;
