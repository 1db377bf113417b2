// Preloaded into the bench's `brainql push` child: on exit, writes its RSS at start and its peak
// RSS (bytes), and the CPU time it used (ms), to BENCH_RSS_FILE, so the bench reports the client's
// growth without polling.
const fs = require('node:fs');
const start = process.memoryUsage().rss;
process.on('exit', () => {
  const usage = process.resourceUsage();
  const peak = usage.maxRSS * 1024;
  const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
  fs.writeFileSync(process.env.BENCH_RSS_FILE, JSON.stringify({ start, peak, cpuMs }));
});
