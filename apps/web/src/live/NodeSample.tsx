// Recent records into and out of a node of the running app (debug.sample), refreshed every
// second while switched on. The runtime keeps the last 100 per direction and this shows the last
// 10, so a fast stream never floods the page; sampling stops 60 s after the last request.
import { useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import type { RouterOutputs } from '../api/types.js';
import { useDesigner } from '../store/context.js';
import { nodeLiveState } from './deploy-match.js';
import { messageOf } from '../runtime/runtime-actions.js';

type Sample = RouterOutputs['debug']['sample'];
const SHOWN = 10;
const show = (v: unknown) =>
  v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v);

export function NodeSample({ nodeId }: { nodeId: string }) {
  const api = useApi();
  // only a node the deployment runs as drawn, while the runtime answers
  const running = useDesigner(
    (s) =>
      s.live.status !== null && nodeLiveState(s.live.match, nodeId, s.live.connection) === 'live',
  );
  const [on, setOn] = useState(false);
  const [sample, setSample] = useState<Sample | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setOn(false);
    setSample(null);
  }, [nodeId]);
  useEffect(() => {
    if (!on) return;
    let stop = false;
    const tick = () =>
      api.debug.sample.query({ nodeId, limit: SHOWN }).then(
        (s) => {
          if (!stop) {
            setSample(s);
            setError(null);
          }
        },
        (e: unknown) => !stop && setError(messageOf(e)),
      );
    void tick();
    const timer = setInterval(() => void tick(), 1000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [api, nodeId, on]);
  if (!running) return null;
  return (
    <section className="sw-sample" data-testid="node-sample">
      <label className="sw-check">
        <input
          type="checkbox"
          data-testid="sample-toggle"
          checked={on}
          onChange={(e) => setOn(e.target.checked)}
        />{' '}
        Sample recent records
      </label>
      {error && <p className="sw-field__error">{error}</p>}
      {on && sample && (
        <>
          <p className="sw-muted" data-testid="sample-counts">
            {sample.inputCount} in · {sample.outputCount} out since sampling started
          </p>
          {(['inputs', 'outputs'] as const).map((dir) => (
            <table key={dir} className="sw-table" data-testid={`sample-${dir}`}>
              <thead>
                <tr>
                  <th>{dir === 'inputs' ? 'in' : 'out'}: key</th>
                  <th>value</th>
                  <th>task</th>
                </tr>
              </thead>
              <tbody>
                {[...sample[dir]].reverse().map((r, i) => (
                  <tr key={i} data-testid="sample-row">
                    <td>{show(r.key)}</td>
                    <td>{show(r.value)}</td>
                    <td>{r.taskId}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </>
      )}
    </section>
  );
}
