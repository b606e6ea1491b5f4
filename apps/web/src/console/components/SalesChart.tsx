import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** One series of the chart: a name for the legend and one value per day (null where nothing sold). */
export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  color: string;
}

/** With fewer days that have sales than this, a chart is a dot or two at its edge: the figures are written instead. */
export const MIN_CHARTED_DAYS = 3;

/**
 * Sales over time with uPlot: days on the x axis, one bar per day and series, as wide as its box (a phone's too). uPlot
 * draws on a canvas, so the same figures are given as a table for screen readers and keyboards (the caller renders
 * it), and the canvas is hidden from them. With sales on fewer than MIN_CHARTED_DAYS days, the figures are written.
 */
export function SalesChart({ days, series, title }: { days: string[]; series: ChartSeries[]; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const sold = days
    .map((day, index) => ({ day, values: series.map((line) => line.values[index]) }))
    .filter((entry) => entry.values.some((value) => value));
  const charted = sold.length >= MIN_CHARTED_DAYS;
  useEffect(() => {
    const element = box.current;
    if (!element || !charted) return;
    const width = Math.max(200, Math.min(element.clientWidth, 900));
    const data: uPlot.AlignedData = [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((line) => line.values)];
    const bars = uPlot.paths.bars!({ size: [0.8 / series.length, 24] });
    const plot = new uPlot(
      {
        title,
        width,
        height: 220,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
        // Half a day of room at each end, so the first and last bars are whole; bars stand on zero.
        scales: {
          x: { time: true, range: (_, min, max) => [min - 43_200, max + 43_200] },
          y: { range: (_, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        series: [
          {},
          ...series.map((line) => ({ label: line.label, stroke: line.color, fill: line.color, width: 1, paths: bars, points: { show: false } })),
        ],
        axes: [{ space: 60 }, { size: 50 }],
      },
      data,
      element,
    );
    return () => plot.destroy();
  }, [days, series, title, charted]);
  if (!charted) {
    return (
      <div className="chart-figures">
        <p className="chart-title">{title}</p>
        {sold.map((entry) => (
          <p key={entry.day}>
            {entry.day} ·{" "}
            {series.map((line, index) => (
              <span key={line.label}>
                {line.label}: <strong className="chart-figure">{entry.values[index] ?? 0}</strong>{" "}
              </span>
            ))}
          </p>
        ))}
      </div>
    );
  }
  return <div ref={box} className="chart" aria-hidden="true" />;
}
