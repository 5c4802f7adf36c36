// The sequential reads of bench:notifications, in a process of their own: the benchmark's main
// process has just seeded a million rows, and its garbage collections (a 12 ms scavenge was seen
// in the middle of the 304 poll) would otherwise be charged to the server. A polling client is a
// small process, so this one is too. Input (argv[2], JSON): {base, requests, workloads: [{label,
// query, users: [{token, headers}]}]}; output (stdout, JSON): [{label, times, startedAt, statuses}].
const { base, requests, workloads } = JSON.parse(process.argv[2]);
const results = [];
for (const w of workloads) {
  const times = [];
  const startedAt = [];
  const statuses = {};
  for (let i = 0; i < requests; i++) {
    const u = w.users[i % w.users.length];
    startedAt.push(Date.now());
    const t0 = performance.now();
    const res = await fetch(`${base}/api/notifications${w.query}`, {
      headers: { authorization: `Bearer ${u.token}`, ...u.headers },
    });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  results.push({ label: w.label, times, startedAt, statuses });
}
process.stdout.write(JSON.stringify(results));
