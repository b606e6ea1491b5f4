/**
 * `npm run docs:generate`: writes the pages of docs/ that are generated from the code (settings, problem codes,
 * webhook events, metrics, the last benchmark run).
 */
import * as fs from "node:fs";
import * as path from "node:path";

import { ROOT, generatedPages } from "./pages";

function main(): void {
  for (const page of generatedPages()) {
    const target = path.join(ROOT, page.file);
    const { content } = page;
    const before = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    process.stdout.write(`${before === content ? "unchanged" : "wrote    "} ${page.file}\n`);
  }
}

main();
