/** Log lines captured from a WorkerLogger sink, parsed. */
export class LogCapture {
  readonly lines: Array<Record<string, unknown>> = [];
  readonly sink = (line: string): void => {
    this.lines.push(JSON.parse(line) as Record<string, unknown>);
  };

  messages(level?: string): string[] {
    return this.lines.filter((line) => !level || line.level === level).map((line) => String(line.message));
  }
}
