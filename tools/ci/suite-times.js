// Prints how long each Nx task of `npm test` took, from the profile Nx writes when NX_PROFILE names a file (a Chrome
// trace: one complete event, `ph: "X"`, per task, with its start and duration in microseconds). The slowest first, so
// the CI budget (15 minutes on 2 cores) stays visible. Usage: node tools/ci/suite-times.js <wall ms> <profile.json>...
const fs = require("node:fs");

const [wallArg, ...profileFiles] = process.argv.slice(2);

/** One row per task: `{ task, seconds, status, startSeconds }`, the slowest first. */
function taskTimes(profile) {
  const tasks = profile.filter((event) => event.ph === "X");
  const firstStart = Math.min(...tasks.map((event) => event.ts));
  return tasks
    .map((event) => ({
      task: event.name,
      seconds: event.dur / 1e6,
      status: event.args?.status ?? "?",
      startSeconds: (event.ts - firstStart) / 1e6,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

function formatTable(rows, wallMs) {
  const width = Math.max(4, ...rows.map((row) => row.task.length));
  const lines = [`${"task".padEnd(width)}  seconds  started at  status`];
  for (const row of rows) {
    lines.push(`${row.task.padEnd(width)}  ${row.seconds.toFixed(1).padStart(7)}  ${row.startSeconds.toFixed(1).padStart(10)}  ${row.status}`);
  }
  const sum = rows.reduce((total, row) => total + row.seconds, 0);
  lines.push(`${rows.length} tasks, ${sum.toFixed(1)} s of task time` + (wallMs ? ` in ${(wallMs / 1000).toFixed(1)} s of wall time` : ""));
  return lines.join("\n");
}

if (require.main === module) {
  const found = profileFiles.filter((file) => fs.existsSync(file));
  if (found.length === 0) {
    console.log(`no task profile at ${profileFiles.join(", ")}: the suites' times are unknown`);
  } else {
    const events = found.flatMap((file) => JSON.parse(fs.readFileSync(file, "utf8")));
    console.log("\ntime of each task of npm test:");
    console.log(formatTable(taskTimes(events), Number(wallArg) || undefined));
  }
}

module.exports = { taskTimes, formatTable };
