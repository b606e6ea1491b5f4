// Preloaded into the API's processes by the memory soak (NODE_OPTIONS="--expose-gc --require <this file>"): on
// SIGWINCH (ignored by default, and not one of the signals Nest's shutdown hooks close the app on, as SIGUSR2 is) a
// process collects its garbage in full and writes its memory figures to HEAP_PROBE_DIR/heap-<pid>.json, so
// the soak compares live heap, not heap plus whatever garbage the last collection left. The figures before the
// collection, V8's heap spaces and the kernel's split of the RSS are there too: they tell what holds the RSS above
// the live heap (V8's pages, the native allocator's, or code). With HEAP_PROBE_EVERY_MS a process also appends its
// figures (without collecting) to heap-<pid>.jsonl at that interval, to follow them under load.
const fs = require("node:fs");
const path = require("node:path");
const v8 = require("node:v8");

const MIB = 1048576;
const mib = (bytes) => Math.round((bytes / MIB) * 10) / 10;

/** process.memoryUsage() in MiB. */
function usage() {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss: mib(rss), heapTotal: mib(heapTotal), heapUsed: mib(heapUsed), external: mib(external), arrayBuffers: mib(arrayBuffers) };
}

/** Each V8 heap space's committed size and used size, in MiB. */
function spaces() {
  const figures = {};
  for (const space of v8.getHeapSpaceStatistics()) {
    figures[space.space_name] = { committed: mib(space.physical_space_size), used: mib(space.space_used_size) };
  }
  return figures;
}

/** The kernel's split of the RSS (anonymous memory, mapped files), in MiB; empty where /proc has no such file. */
function kernel() {
  try {
    const status = fs.readFileSync("/proc/self/status", "utf8");
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) / 1024;
    return { rssAnon: field("RssAnon"), rssFile: field("RssFile"), hwm: field("VmHWM") };
  } catch {
    return {};
  }
}

const dir = process.env.HEAP_PROBE_DIR;
if (dir && typeof global.gc === "function") {
  process.on("SIGWINCH", () => {
    const before = { ...usage(), kernel: kernel() };
    global.gc();
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const file = path.join(dir, `heap-${process.pid}.json`);
    const figures = { at: Date.now(), rss, heapUsed, heapTotal, external, before, after: { ...usage(), kernel: kernel(), spaces: spaces() } };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(figures));
    fs.renameSync(`${file}.tmp`, file);
  });
}
const every = Number(process.env.HEAP_PROBE_EVERY_MS ?? 0);
if (dir && every > 0) {
  // The collections' pauses so far, in ms by kind: what a memory setting costs the main thread.
  const { PerformanceObserver, constants } = require("node:perf_hooks");
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  };
  const gcMs = { minor: 0, major: 0, incremental: 0, other: 0 };
  const gcCount = { minor: 0, major: 0, incremental: 0, other: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind] ?? "other";
      gcMs[kind] += entry.duration;
      gcCount[kind] += 1;
    }
  }).observe({ entryTypes: ["gc"] });
  const log = path.join(dir, `heap-${process.pid}.jsonl`);
  setInterval(() => {
    const cpu = process.cpuUsage();
    const figures = { at: Date.now(), ...usage(), kernel: kernel(), spaces: spaces(), gcMs, gcCount, cpuMs: (cpu.user + cpu.system) / 1000 };
    fs.appendFileSync(log, `${JSON.stringify(figures)}\n`);
  }, every).unref();
}
