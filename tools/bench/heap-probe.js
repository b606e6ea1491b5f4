// Preloaded into the API's processes by the memory soak (NODE_OPTIONS="--expose-gc --require <this file>"): on
// SIGWINCH (ignored by default, and not one of the signals Nest's shutdown hooks close the app on, as SIGUSR2 is) a
// process collects its garbage in full and writes its memory figures to HEAP_PROBE_DIR/heap-<pid>.json, so
// the soak compares live heap, not heap plus whatever garbage the last collection left.
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.HEAP_PROBE_DIR;
if (dir && typeof global.gc === "function") {
  process.on("SIGWINCH", () => {
    global.gc();
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const file = path.join(dir, `heap-${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), rss, heapUsed, heapTotal, external }));
    fs.renameSync(`${file}.tmp`, file);
  });
}
