import type { organisations } from '@tp/contract';

/** The bars' series: one x per bucket of the window (Unix seconds), the count in it (0 when none). */
export function chartSeries(data: organisations.CheckInsBody): [number[], number[]] {
  const step = data.bucketSeconds;
  const start = Math.floor(Date.parse(data.from) / 1000 / step) * step;
  const end = Date.parse(data.to) / 1000;
  const counts = new Map(data.buckets.map((b) => [Date.parse(b.at) / 1000, b.count]));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let x = start; x < end; x += step) {
    xs.push(x);
    ys.push(counts.get(x) ?? 0);
  }
  return [xs, ys];
}
