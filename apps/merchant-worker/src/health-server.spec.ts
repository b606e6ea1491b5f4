import { HealthServer, type HealthReport } from "./health-server";

const report = (): HealthReport => ({ status: "ok", merchant: "0x0", startedAt: new Date(0).toISOString(), chains: [], raffles: [] });

async function answers(url: string): Promise<number | string> {
  try {
    return (await fetch(url)).status;
  } catch (error) {
    return String((error as { cause?: { code?: string } }).cause?.code ?? error);
  }
}

/** HEALTH_HOST (issue 31): /health listens on the configured address only, not on every interface. */
describe("HealthServer host", () => {
  it("listens on the given address alone", async () => {
    // 127.0.0.2 is loopback on Linux too: bound there, 127.0.0.1 must refuse.
    const server = new HealthServer(report, 0, "127.0.0.2");
    const port = await server.listen();
    try {
      expect(await answers(`http://127.0.0.2:${port}/health`)).toBe(200);
      expect(await answers(`http://127.0.0.1:${port}/health`)).toBe("ECONNREFUSED");
    } finally {
      await server.close();
    }
  });
});
