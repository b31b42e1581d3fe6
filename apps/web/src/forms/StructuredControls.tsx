// Typed editors for the structured config fields: lists (split branches, cogroup inputs, store
// names), optional objects (a split's default branch) and records (a processor's params). Each
// row's fields reuse FieldControl, so a branch predicate gets the same CEL editor and inline
// errors as a filter's expression.
import { useEffect, useState, type ReactNode } from 'react';
import { pathSegments, type Problem } from '../model/validation.js';
import type { FieldSpec } from './zod-fields.js';
import { FieldControl } from './FieldControl.js';

interface StructuredProps {
  field: FieldSpec;
  value: unknown;
  onChange(value: unknown): void;
  problems: readonly Problem[];
  testId: string;
  celVariables?: Readonly<Record<string, string>> | undefined;
}

/** The config path of a problem below its field: `config.branches[1].predicate` → ["1", "predicate"]. */
export function subPathOf(problem: Problem, key: string): string[] {
  const segments = pathSegments(problem.path);
  const at = segments.indexOf('config');
  if (at < 0 || segments[at + 1] !== key) return [];
  return segments.slice(at + 2);
}

/** Problems about `sub` (a row index, then a field) below the field `key`. */
export function problemsBelow(
  problems: readonly Problem[],
  key: string,
  ...sub: string[]
): Problem[] {
  return problems.filter((p) => {
    const rest = subPathOf(p, key);
    return sub.every((s, i) => rest[i] === s);
  });
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function singular(label: string): string {
  const lower = label.toLowerCase();
  if (lower.endsWith('ches')) return lower.slice(0, -2); // branches → branch
  if (lower.endsWith('s')) return lower.slice(0, -1);
  return lower;
}

/** Rows of objects (fields) or scalars (item); add, remove and reorder rows. */
export function ListControl({
  field,
  value,
  onChange,
  problems,
  testId,
  celVariables,
}: StructuredProps) {
  if (field.control.type !== 'list') return null;
  const { fields, item } = field.control;
  const rows = asList(value);
  const base = `${testId}-${field.key}`;
  const noun = singular(field.label);
  const setRows = (next: unknown[]) => onChange(next.length === 0 && field.optional ? [] : next);
  const replace = (i: number, row: unknown) => setRows(rows.map((r, j) => (j === i ? row : r)));
  const move = (i: number, by: number) => {
    const j = i + by;
    if (j < 0 || j >= rows.length) return;
    const next = [...rows];
    [next[i], next[j]] = [next[j], next[i]];
    setRows(next);
  };
  const rowProblems = (i: number) => problemsBelow(problems, field.key, String(i));
  const listProblems = problems.filter((p) => subPathOf(p, field.key).length === 0);

  return (
    <fieldset className="sw-list" data-testid={base}>
      <legend>
        {field.label}
        {!field.optional && <span className="sw-field__required"> *</span>}
      </legend>
      {rows.length === 0 && <p className="sw-muted">No {field.label.toLowerCase()} yet.</p>}
      <ol className="sw-list__rows">
        {rows.map((row, i) => (
          <li key={i} className="sw-list__row" data-testid={`${base}-${i}`}>
            <div className="sw-list__row-head">
              <span className="sw-muted">
                {noun} {i + 1}
              </span>
              <span className="sw-list__row-actions">
                <button
                  type="button"
                  className="sw-button sw-button--small sw-button--ghost"
                  aria-label={`Move ${noun} ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="sw-button sw-button--small sw-button--ghost"
                  aria-label={`Move ${noun} ${i + 1} down`}
                  disabled={i === rows.length - 1}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="sw-button sw-button--small sw-button--ghost"
                  aria-label={`Remove ${noun} ${i + 1}`}
                  data-testid={`${base}-${i}-remove`}
                  onClick={() => setRows(rows.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </span>
            </div>
            {fields
              ? fields.map((sub) => (
                  <FieldControl
                    key={sub.key}
                    field={sub}
                    value={asRecord(row)[sub.key]}
                    problems={problemsBelow(problems, field.key, String(i), sub.key)}
                    testId={`${base}-${i}`}
                    celVariables={celVariables}
                    onChange={(v) => {
                      const next = { ...asRecord(row) };
                      if (v === undefined) delete next[sub.key];
                      else next[sub.key] = v;
                      replace(i, next);
                    }}
                  />
                ))
              : item && (
                  <FieldControl
                    field={{
                      key: String(i),
                      label: `${noun} ${i + 1}`,
                      control: item,
                      optional: false,
                    }}
                    value={row}
                    problems={rowProblems(i)}
                    testId={base}
                    onChange={(v) => replace(i, v ?? '')}
                  />
                )}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="sw-button sw-button--small"
        data-testid={`${base}-add`}
        onClick={() => setRows([...rows, fields ? {} : ''])}
      >
        Add {noun}
      </button>
      {listProblems.length > 0 && (
        <div className="sw-field__errors" role="alert" data-testid={`${base}-error`}>
          {listProblems.map((p, i) => (
            <div key={i} className="sw-field__error">
              {p.message}
            </div>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** An object field by field; an optional one is switched on and off with a checkbox. */
export function ObjectControl({
  field,
  value,
  onChange,
  problems,
  testId,
  celVariables,
}: StructuredProps) {
  if (field.control.type !== 'object') return null;
  const base = `${testId}-${field.key}`;
  const present = typeof value === 'object' && value !== null;
  const record = asRecord(value);
  return (
    <fieldset className="sw-list" data-testid={base}>
      <legend>{field.label}</legend>
      {field.optional && (
        <label className="sw-check">
          <input
            type="checkbox"
            checked={present}
            data-testid={`${base}-enabled`}
            onChange={(e) => onChange(e.target.checked ? {} : undefined)}
          />{' '}
          {present ? 'on' : 'off'}
        </label>
      )}
      {(present || !field.optional) &&
        field.control.fields.map((sub) => (
          <FieldControl
            key={sub.key}
            field={sub}
            value={record[sub.key]}
            problems={problemsBelow(problems, field.key, sub.key)}
            testId={base}
            celVariables={celVariables}
            onChange={(v) => {
              const next = { ...record };
              if (v === undefined) delete next[sub.key];
              else next[sub.key] = v;
              onChange(next);
            }}
          />
        ))}
    </fieldset>
  );
}

/** A value typed into a params row: JSON when it parses (numbers, booleans, objects), else text. */
export function parseEntryValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Name / value rows of a record; values are JSON, or text when they are not JSON. */
export function EntriesControl({ field, value, onChange, problems, testId }: StructuredProps) {
  const base = `${testId}-${field.key}`;
  const fromValue = () =>
    Object.entries(asRecord(value)).map(([k, v]) => ({
      name: k,
      raw: typeof v === 'string' ? v : JSON.stringify(v),
    }));
  // rows are kept locally so a row being typed (empty name, duplicate) is not lost
  const [rows, setRows] = useState(fromValue);
  useEffect(() => {
    const current = JSON.stringify(toRecord(rows));
    if (current !== JSON.stringify(asRecord(value))) setRows(fromValue());
  }, [value]);
  function toRecord(list: { name: string; raw: string }[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const r of list) if (r.name !== '') out[r.name] = parseEntryValue(r.raw);
    return out;
  }
  const update = (next: { name: string; raw: string }[]) => {
    setRows(next);
    const record = toRecord(next);
    onChange(Object.keys(record).length === 0 && field.optional ? undefined : record);
  };
  const errors: ReactNode =
    problems.length > 0 ? (
      <div className="sw-field__errors" role="alert" data-testid={`${base}-error`}>
        {problems.map((p, i) => (
          <div key={i} className="sw-field__error">
            {p.message}
          </div>
        ))}
      </div>
    ) : null;
  return (
    <fieldset className="sw-list" data-testid={base}>
      <legend>{field.label}</legend>
      {rows.map((row, i) => (
        <div key={i} className="sw-entries__row">
          <input
            type="text"
            aria-label={`${field.label} name ${i + 1}`}
            data-testid={`${base}-${i}-name`}
            value={row.name}
            placeholder="name"
            onChange={(e) =>
              update(rows.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)))
            }
          />
          <input
            type="text"
            aria-label={`${field.label} value ${i + 1}`}
            data-testid={`${base}-${i}-value`}
            value={row.raw}
            placeholder="value (JSON or text)"
            onChange={(e) =>
              update(rows.map((r, j) => (j === i ? { ...r, raw: e.target.value } : r)))
            }
          />
          <button
            type="button"
            className="sw-button sw-button--small sw-button--ghost"
            aria-label={`Remove ${field.label.toLowerCase()} ${i + 1}`}
            onClick={() => update(rows.filter((_, j) => j !== i))}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        className="sw-button sw-button--small"
        data-testid={`${base}-add`}
        onClick={() => setRows([...rows, { name: '', raw: '' }])}
      >
        Add entry
      </button>
      {errors}
    </fieldset>
  );
}
