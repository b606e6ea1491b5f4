/**
 * The pages generated from the code: each file of docs/ and its content as the code says it should be. `npm run
 * docs:generate` writes them; tools/test/docs-reference.spec.ts fails when a committed page differs.
 */
import * as fs from "node:fs";
import * as path from "node:path";

import { withBenchBlock } from "./bench-block";
import { metricsPage } from "./metrics-page";
import { problemsPage } from "./problems-page";
import { settingsPage } from "./settings-page";
import { webhookEventsPage } from "./webhooks-page";

export const ROOT = path.resolve(__dirname, "../..");

export interface GeneratedPage {
  /** Path from the repository root. */
  file: string;
  content: string;
}

export function generatedPages(): GeneratedPage[] {
  const performance = "docs/performance.md";
  return [
    { file: "docs/reference/settings.md", content: settingsPage() },
    { file: "docs/reference/problems.md", content: problemsPage() },
    { file: "docs/reference/webhook-events.md", content: webhookEventsPage() },
    { file: "docs/reference/metrics.md", content: metricsPage() },
    { file: performance, content: withBenchBlock(fs.readFileSync(path.join(ROOT, performance), "utf8")) },
  ];
}
