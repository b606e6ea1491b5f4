// The table `npm test` ends with (tools/ci/run-tests.js): each task's time, the slowest first, so the CI budget
// (15 minutes on 2 cores) stays visible.

/** rows: `{ task, seconds, startSeconds, status }`. */
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

module.exports = { formatTable };
