#!/usr/bin/env node
// Prints the functions with the most self time in one or more V8 CPU profiles (`.cpuprofile`, as written by
// `BENCH_API_PROFILE=<dir>`), summed over the files, as a Markdown table:
//   node tools/bench/profile-top.js [--top 20] <file or dir>...
// Self time is the time of the samples whose top frame is the function (V8's timeDeltas); functions are told apart
// by name, file and line, and idle time (the event loop waiting) is reported apart, not ranked.
// `--from <function>` counts only the samples from the first one whose stack holds that function on (e.g.
// `--from signForRaffle`: the load, not the start-up's module loading); `--callers <function>` also prints which
// call paths (three frames up) the function's self time comes from; `--packages` ranks by package instead of by
// function (node_modules' package, Node's own module, the repository's folder, or the native function).
const fs = require("node:fs");
const path = require("node:path");

const args = process.argv.slice(2);
let top = 20;
let from = null;
let callersOf = null;
let byPackage = false;
const inputs = [];
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === "--top") top = Number(args[(i += 1)]);
  else if (args[i] === "--from") from = args[(i += 1)];
  else if (args[i] === "--callers") callersOf = args[(i += 1)];
  else if (args[i] === "--packages") byPackage = true;
  else inputs.push(args[i]);
}
if (inputs.length === 0) {
  console.error("usage: profile-top.js [--top N] <file.cpuprofile or directory>...");
  process.exit(2);
}

const files = inputs.flatMap((input) =>
  fs.statSync(input).isDirectory()
    ? fs
        .readdirSync(input)
        .filter((name) => name.endsWith(".cpuprofile"))
        .map((name) => path.join(input, name))
    : [input],
);

/** Where a function lives, short: the package for node_modules, else the path from the repository's root. */
function place(url, line) {
  if (!url) return "";
  const file = url.replace(/^file:\/\//, "");
  const inModules = file.lastIndexOf("node_modules/");
  const short = inModules >= 0 ? file.slice(inModules + "node_modules/".length) : path.relative(path.resolve(__dirname, "../.."), file);
  return `${short}:${line + 1}`;
}

const DEPTH = Number(process.env.CALLER_DEPTH ?? 4);
/** The package a function belongs to, for --packages. */
function packageOf(url, name) {
  if (!url) return `${name} (native)`;
  const inModules = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (url.startsWith("node:")) return `node:${url.slice("node:".length).split("/").slice(0, 2).join("/")}`;
  return path.dirname(path.relative(path.resolve(__dirname, "../.."), url.replace(/^file:\/\//, "")));
}

const NOT_JS = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);
const byFunction = new Map();
const callers = new Map();
let total = 0;
let idle = 0;
for (const file of files) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const stackOf = (id) => {
    const frames = [];
    for (let at = id; at !== undefined; at = parents.get(at)) frames.push(nodes.get(at).callFrame.functionName || "(anonymous)");
    return frames;
  };
  let counting = from === null;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    if (!counting) {
      if (!stackOf(id).includes(from)) return;
      counting = true;
    }
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (callersOf !== null && functionName === callersOf) {
      const path = stackOf(id).slice(1, DEPTH).join(" < ");
      callers.set(path, (callers.get(path) ?? 0) + micros);
    }
    if (functionName === "(idle)") {
      idle += micros;
      return;
    }
    total += micros;
    const name = functionName || "(anonymous)";
    // A function without a script is native code (a system call's binding, an addon), named by V8.
    const key = NOT_JS.has(name) ? name : byPackage ? packageOf(url, name) : url ? `${name} ${place(url, lineNumber)}` : `${name} (native)`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  });
}

const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`${files.length} profile(s): ${(total / 1e3).toFixed(0)} ms busy, ${(idle / 1e3).toFixed(0)} ms idle\n`);
console.log(`| # | ${byPackage ? "Package" : "Function (file:line)"} | Self ms | Share of busy |`);
console.log("|---|---|---|---|");
rows.forEach(([key, micros], index) => {
  console.log(`| ${index + 1} | \`${key}\` | ${(micros / 1e3).toFixed(0)} | ${((micros / total) * 100).toFixed(1)} % |`);
});

if (callersOf !== null) {
  console.log(`\nSelf time of ${callersOf} by caller:`);
  for (const [path, micros] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(micros / 1e3).toFixed(0)} ms  ${path}`);
}
