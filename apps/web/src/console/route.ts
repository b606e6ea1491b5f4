import { useEffect, useState } from "react";

/** The console's pages, from the URL's hash (`#/raffles`) under /console/: static hosting needs no rewrite rule. */
export type ConsolePage = "overview" | "raffles" | "keys" | "webhooks";

export const CONSOLE_PAGES: Array<{ page: ConsolePage; hash: string; title: string }> = [
  { page: "overview", hash: "#/", title: "Overview" },
  { page: "raffles", hash: "#/raffles", title: "Raffles" },
  { page: "keys", hash: "#/keys", title: "API keys" },
  { page: "webhooks", hash: "#/webhooks", title: "Webhooks" },
];

export function parseConsoleRoute(hash: string): ConsolePage {
  return CONSOLE_PAGES.find((entry) => entry.hash === hash && entry.hash !== "#/")?.page ?? "overview";
}

export function useConsoleRoute(): ConsolePage {
  const [page, setPage] = useState(() => parseConsoleRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setPage(parseConsoleRoute(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return page;
}
