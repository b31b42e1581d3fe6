// The serde picker shared by the produce form and the records view.
import type { BuiltinSerdeName } from '@streamwright/topology-model';
import { SERDES } from './serdes.js';

export function serdeSelect(
  id: string,
  label: string,
  current: BuiltinSerdeName,
  set: (s: BuiltinSerdeName) => void,
  testId: string,
) {
  return (
    <div className="sw-field sw-field--narrow">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={current}
        data-testid={testId}
        onChange={(e) => set(e.target.value as BuiltinSerdeName)}
      >
        {SERDES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}
