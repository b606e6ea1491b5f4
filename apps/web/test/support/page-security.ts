import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page, Route } from "playwright-core";

/**
 * Checks a page's security headers take effect in the browser: a foreign site that tries to frame it, and a watch on
 * the page's console for Content-Security-Policy violations (the app must work under its own policy).
 */

/**
 * Opens a page of another origin (its own server on another port) that puts `target` in an iframe, and says what the
 * frame holds once the page has loaded: its URL, and whether the app's root element is in it.
 */
export async function frameFromForeignSite(context: BrowserContext, target: string): Promise<{ frameUrl: string; appInFrame: boolean }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><title>Win a prize</title><h1>Click the button</h1><iframe src="${target}" width="1000" height="800"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const foreign = await context.newPage();
  try {
    // "load" waits for the iframe too, whether the browser rendered or refused it.
    await foreign.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { waitUntil: "load" });
    const frame = foreign.frames().find((each) => each !== foreign.mainFrame())!;
    const appInFrame =
      (await frame
        .locator("#root")
        .count()
        .catch(() => 0)) > 0;
    return { frameUrl: frame.url(), appInFrame };
  } finally {
    await foreign.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Every Content-Security-Policy violation the page reports from now on (console messages and violation events). */
export function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/**
 * Answers the API's `path` with its real answer changed by `change`: what a stored row the API would refuse today
 * looks like to the page, without writing it to the database.
 */
export async function alterApiAnswer<T>(page: Page, url: string | RegExp, change: (body: T) => unknown): Promise<() => Promise<void>> {
  const handler = async (route: Route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: change((await response.json()) as T) });
  };
  await page.route(url, handler);
  return () => page.unroute(url, handler);
}
