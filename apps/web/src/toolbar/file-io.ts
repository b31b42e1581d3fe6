// Topology files: export through topology-model's canonical exportTopology (so export → import
// → export is byte-identical), import through importTopology (which applies migrations and
// returns every error with its path; nothing is applied on error).
import {
  exportTopology,
  importTopology,
  validateTopology,
  type TopologyDocument,
} from '@streamwright/topology-model';
import type { Problem } from '../model/validation.js';

export type ExportResult =
  { canonical: true; text: string } | { canonical: false; text: string; problems: number };

/**
 * A valid document exports canonically. A document with problems is still saved (as plain
 * JSON, so work in progress is never lost), and importing it back lists those problems.
 */
export function exportDocument(doc: TopologyDocument): ExportResult {
  const result = validateTopology(doc);
  if (result.ok) return { canonical: true, text: exportTopology(result.topology) };
  return {
    canonical: false,
    text: `${JSON.stringify(doc, null, 2)}\n`,
    problems: result.errors.length,
  };
}

export type ImportResult = { ok: true; doc: TopologyDocument } | { ok: false; problems: Problem[] };

export function importDocument(text: string): ImportResult {
  const result = importTopology(text);
  if (!result.ok) return { ok: false, problems: result.errors.map((e) => ({ ...e })) };
  return { ok: true, doc: result.topology as TopologyDocument };
}

export function fileNameFor(doc: TopologyDocument): string {
  return `${doc.application.id || 'topology'}.topology.json`;
}

export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // revoke after the download has started
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
