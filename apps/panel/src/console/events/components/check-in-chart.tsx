/**
 * The dashboard's check-ins per 5 minutes as bars (uPlot, a maintained ~50 KB time-series chart; this module is
 * the console's lazy chart chunk, decision 024). The x axis runs over the event day (`from` to `to`) in the
 * event's time zone, every bucket drawn, empty ones as zero; colours are the theme's tokens, read when drawn.
 * The chart is an image to assistive technology (`role="img"` with `label`); the dashboard's text gives the total
 * and the peak.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { organisations } from '@tp/contract';
import { formatTime, langOf } from '@tp/contract/format';
import { chartSeries } from './chart-series';

export default function CheckInChart({
  data,
  timeZone,
  theme,
  label,
}: {
  data: organisations.CheckInsBody;
  timeZone: string;
  /** The theme shown: a change redraws the chart in its colours. */
  theme: 'light' | 'dark';
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const css = getComputedStyle(document.documentElement);
    const token = (name: string) => css.getPropertyValue(name).trim();
    const lang = langOf(document.documentElement.lang);
    const axis = {
      stroke: token('--muted'),
      grid: { stroke: token('--border') },
      ticks: { stroke: token('--border') },
    };
    const plot = new uPlot(
      {
        width: el.clientWidth,
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timeZone),
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [
          {
            ...axis,
            // Hours in the console's language and the event's zone (24-hour in Spanish), not uPlot's English,
            // through the contract's formatter.
            values: (_u, splits) => splits.map((x) => formatTime(new Date(x * 1000), timeZone, lang)),
            // At least 80 px between hour labels, so a phone shows fewer, not overlapping ones.
            space: 80,
          },
          { ...axis, size: 40 },
        ],
        series: [
          {},
          {
            stroke: token('--accent'),
            fill: token('--accent'),
            paths: uPlot.paths.bars!({ size: [0.8, 24] }),
            points: { show: false },
          },
        ],
      },
      chartSeries(data),
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, timeZone, theme]);
  return <div ref={ref} className="chart" role="img" aria-label={label} data-testid="check-in-chart" />;
}
