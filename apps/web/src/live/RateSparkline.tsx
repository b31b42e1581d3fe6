// The selected node's rate over the last two minutes, drawn with uPlot (a small, fast canvas
// chart): one point per metrics tick, kept while the node stays selected.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDesigner } from '../store/context.js';
import { nodeLiveState } from './deploy-match.js';

const POINTS = 120;

export function RateSparkline({ nodeId }: { nodeId: string }) {
  // only a node the deployment runs as drawn, while the runtime answers
  const live = useDesigner(
    (s) =>
      s.live.status !== null && nodeLiveState(s.live.match, nodeId, s.live.connection) === 'live',
  );
  const counter = useDesigner((s) => s.live.counters[nodeId]);
  const at = useDesigner((s) => s.live.at);
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = useRef<[number[], number[]]>([[], []]);

  useEffect(() => {
    data.current = [[], []];
    if (!live || !el.current) return;
    plot.current = new uPlot(
      {
        width: 260,
        height: 70,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: true },
          y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.15)] },
        },
        axes: [{ show: false }, { size: 34, font: '10px sans-serif', ticks: { show: false } }],
        series: [{}, { stroke: '#2563eb', fill: 'rgba(37, 99, 235, 0.12)', width: 1.5 }],
      },
      data.current,
      el.current,
    );
    return () => {
      plot.current?.destroy();
      plot.current = null;
    };
  }, [nodeId, live]);

  useEffect(() => {
    if (!plot.current || at === null || counter === undefined) return;
    const [xs, ys] = data.current;
    if (xs.length > 0 && xs[xs.length - 1] === at / 1000) return;
    xs.push(at / 1000);
    ys.push(counter.rate);
    if (xs.length > POINTS) {
      xs.shift();
      ys.shift();
    }
    plot.current.setData(data.current);
  }, [at, counter]);

  if (!live) return null;
  return (
    <section className="sw-spark" data-testid="rate-sparkline" data-points={data.current[0].length}>
      <h4 className="sw-muted">records/s, last 2 minutes</h4>
      <div ref={el} />
    </section>
  );
}
