// The application dashboard: four small time charts (uPlot) of the running app over the last
// 10 minutes — records in and out per second, consumer lag, end-to-end latency, restore
// progress — with the latest values in their titles, as a Flink UI user would expect to find.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDesigner } from '../store/context.js';
import { formatCount, formatRate } from '../live/counters.js';
import type { AppSample } from './app-history.js';
import { useAppHistory } from './history-store.js';

interface ChartSpec {
  id: string;
  title: string;
  series: { label: string; stroke: string; value: (s: AppSample) => number | null }[];
  latest: (s: AppSample) => string;
}

const CHARTS: ChartSpec[] = [
  {
    id: 'throughput',
    title: 'Records/s in and out',
    series: [
      { label: 'in', stroke: '#2563eb', value: (s) => s.inRate },
      { label: 'out', stroke: '#16a34a', value: (s) => s.outRate },
    ],
    latest: (s) => `in ${formatRate(s.inRate)} · out ${formatRate(s.outRate)}`,
  },
  {
    id: 'lag',
    title: 'Lag (records waiting)',
    series: [{ label: 'lag', stroke: '#d97706', value: (s) => s.lag }],
    latest: (s) => (s.lag === null ? '—' : formatCount(s.lag)),
  },
  {
    id: 'latency',
    title: 'End-to-end latency (ms)',
    series: [{ label: 'e2e', stroke: '#7c3aed', value: (s) => s.e2eLatencyMs }],
    latest: (s) => (s.e2eLatencyMs === null ? '—' : `${formatCount(s.e2eLatencyMs)} ms`),
  },
  {
    id: 'restore',
    title: 'Restore remaining (changelog records)',
    series: [{ label: 'restore', stroke: '#dc2626', value: (s) => s.restoreRemaining }],
    latest: (s) => (s.restoreRemaining === 0 ? 'done' : formatCount(s.restoreRemaining)),
  },
];

function dataOf(spec: ChartSpec, samples: readonly AppSample[]): uPlot.AlignedData {
  return [
    samples.map((s) => s.at / 1000),
    ...spec.series.map((series) => samples.map((s) => series.value(s))),
  ];
}

function Chart({ spec, samples }: { spec: ChartSpec; samples: readonly AppSample[] }) {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    if (!el.current) return;
    plot.current = new uPlot(
      {
        width: 300,
        height: 110,
        legend: { show: false },
        scales: {
          x: { time: true },
          y: { range: (_u, _min, max) => [0, Math.max(1, (max ?? 0) * 1.15)] },
        },
        axes: [
          { size: 24, font: '10px sans-serif' },
          { size: 44, font: '10px sans-serif' },
        ],
        series: [{}, ...spec.series.map((s) => ({ label: s.label, stroke: s.stroke, width: 1.5 }))],
      },
      dataOf(spec, []),
      el.current,
    );
    return () => {
      plot.current?.destroy();
      plot.current = null;
    };
  }, [spec]);
  useEffect(() => {
    plot.current?.setData(dataOf(spec, samples));
  }, [spec, samples]);
  const last = samples.at(-1);
  return (
    <figure className="sw-dashboard__chart" data-testid={`dashboard-${spec.id}`}>
      <figcaption>
        {spec.title}:{' '}
        <strong data-testid={`dashboard-${spec.id}-latest`}>
          {last ? spec.latest(last) : '—'}
        </strong>
      </figcaption>
      <div ref={el} />
    </figure>
  );
}

export function Dashboard() {
  const samples = useAppHistory((s) => s.samples);
  const running = useDesigner((s) => s.live.status !== null);
  if (!running) return <p className="sw-empty">Deploy and start the app to see its dashboard.</p>;
  return (
    <div className="sw-dashboard" data-testid="dashboard" data-samples={samples.length}>
      {CHARTS.map((spec) => (
        <Chart key={spec.id} spec={spec} samples={samples} />
      ))}
    </div>
  );
}
