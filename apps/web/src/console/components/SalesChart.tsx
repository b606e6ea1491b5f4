import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** One line of the chart: a name for the legend and one value per day (null where nothing sold). */
export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  color: string;
}

/**
 * Sales over time with uPlot: days on the x axis, one line per series. uPlot draws on a canvas, so the same figures
 * are given as a table for screen readers and keyboards (the caller renders it), and the canvas is hidden from them.
 */
export function SalesChart({ days, series, title }: { days: string[]; series: ChartSeries[]; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || days.length === 0) return;
    const width = Math.max(280, Math.min(element.clientWidth, 900));
    const data: uPlot.AlignedData = [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((line) => line.values)];
    const plot = new uPlot(
      {
        title,
        width,
        height: 220,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
        scales: { x: { time: true } },
        series: [{}, ...series.map((line) => ({ label: line.label, stroke: line.color, width: 2, points: { show: true } }))],
        axes: [{}, { size: 60 }],
      },
      data,
      element,
    );
    return () => plot.destroy();
  }, [days, series, title]);
  return <div ref={box} className="chart" aria-hidden="true" />;
}
