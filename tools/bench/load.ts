import autocannon from "autocannon";

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** Builds each request's body; `context` belongs to the connection (one request in flight per connection). */
  body?: (context: Record<string, unknown>) => string;
  /** Sees the responses, with the context their request was built with. */
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

/** Drives one endpoint with autocannon at a fixed concurrency and reports throughput and latency. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? "GET",
        headers: options.headers,
        connections: options.connections,
        duration: options.durationSeconds,
        pipelining: 1,
        requests: [
          {
            setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) =>
              options.body ? { ...request, body: options.body(context) } : request,
            onResponse: (status: number, body: string, context: Record<string, unknown>) =>
              options.onResponse?.(status, body, context),
          },
        ],
      } as never,
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error);
        resolve({
          requests: result.requests.total,
          requestsPerSecond: Math.round(result.requests.average),
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
      },
    );
    instance.on("error", reject);
  });
}
