// The key-window picker of the records view: plain keys, or one of Kafka's windowed-key layouts
// (with the window size where the layout derives the end from it). Chosen for the user from the
// document where it can be (a sink's windowed key, a window store's changelog).
import { useId } from 'react';
import type { KeyWindow } from './serdes.js';

type Kind = KeyWindow['kind'] | 'none';

const LABELS: Record<Kind, string> = {
  none: 'plain',
  time: 'time windowed',
  session: 'session windowed',
  windowStore: 'window store changelog',
};

export function KeyWindowSelect({
  value,
  onChange,
}: {
  value: KeyWindow | undefined;
  onChange: (next: KeyWindow | undefined) => void;
}) {
  const ids = { kind: useId(), size: useId() };
  const kind: Kind = value?.kind ?? 'none';
  const sizeMs = value && 'sizeMs' in value ? value.sizeMs : 60_000;
  const choose = (next: Kind) =>
    onChange(
      next === 'none'
        ? undefined
        : next === 'session'
          ? { kind: 'session' }
          : { kind: next, sizeMs },
    );
  return (
    <>
      <div className="sw-field sw-field--narrow">
        <label htmlFor={ids.kind}>Key window</label>
        <select
          id={ids.kind}
          value={kind}
          data-testid="read-key-window"
          title="How windowed keys are laid out: Kafka's TimeWindowedSerde, SessionWindowedSerde, or a window store's changelog"
          onChange={(e) => choose(e.target.value as Kind)}
        >
          {(Object.keys(LABELS) as Kind[]).map((k) => (
            <option key={k} value={k}>
              {LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      {value && 'sizeMs' in value && (
        <div className="sw-field sw-field--narrow">
          <label htmlFor={ids.size}>Window size (ms)</label>
          <input
            id={ids.size}
            type="number"
            min={1}
            value={value.sizeMs}
            data-testid="read-window-size"
            onChange={(e) => {
              const size = Number(e.target.value);
              if (Number.isInteger(size) && size > 0) onChange({ ...value, sizeMs: size });
            }}
          />
        </div>
      )}
    </>
  );
}
