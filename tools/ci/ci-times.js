// CI time as data: every full `npm test` (tools/ci/run-tests.js) writes docs/data/ci-times.json (each task's seconds,
// start and status, the run's wall time and the machine's cores), and the next run starts its tasks in that file's
// order, the longest first. The file is the one record of CI time; docs quote it rather than copy it.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const CI_TIMES = path.resolve(__dirname, "../../docs/data/ci-times.json");

/** The tasks of the last measured run, the longest first; [] when no run was recorded. */
function readLongestFirst(file = CI_TIMES) {
  if (!fs.existsSync(file)) return [];
  const { tasks } = JSON.parse(fs.readFileSync(file, "utf8"));
  return [...tasks].sort((a, b) => b.seconds - a.seconds).map((row) => row.task);
}

/** rows: `{ task, seconds, startSeconds, status }` as run-tests.js collects them. */
function writeCiTimes(rows, wallMs, parallel, file = CI_TIMES) {
  const round = (seconds) => Math.round(seconds * 10) / 10;
  const record = {
    measuredAt: new Date().toISOString(),
    wallSeconds: round(wallMs / 1000),
    cores: os.cpus().length,
    parallel,
    tasks: [...rows]
      .sort((a, b) => b.seconds - a.seconds)
      .map((row) => ({ task: row.task, seconds: round(row.seconds), startSeconds: round(row.startSeconds), status: row.status })),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

module.exports = { CI_TIMES, readLongestFirst, writeCiTimes };
