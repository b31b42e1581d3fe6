import { describe, expect, it } from 'vitest';
import { fieldOfAppPath, fieldOfPath, pathSegments, toValidationView } from './validation.js';
import { emptyDocument } from './new-document.js';

describe('validation paths', () => {
  it('splits topology-model paths into segments, keeping quoted keys whole', () => {
    expect(pathSegments('nodes[2].config.expression')).toEqual([
      'nodes',
      '2',
      'config',
      'expression',
    ]);
    expect(pathSegments('application.config["commit.interval.ms"]')).toEqual([
      'application',
      'config',
      'commit.interval.ms',
    ]);
    expect(pathSegments('edges[0].to')).toEqual(['edges', '0', 'to']);
    expect(pathSegments('')).toEqual([]);
  });

  it('maps a path to the node field it concerns', () => {
    expect(fieldOfPath('nodes[2].config.expression')).toBe('expression');
    expect(fieldOfPath('nodes[0].id')).toBe('id');
    expect(fieldOfPath('nodes[0].config')).toBe('config');
    expect(fieldOfPath('edges[1].to')).toBeNull();
    expect(fieldOfPath('nodes[3]')).toBeNull();
  });

  it('maps a path to the application field it concerns', () => {
    expect(fieldOfAppPath('application.id')).toBe('id');
    expect(fieldOfAppPath('application.config["commit.interval.ms"]')).toBe('commit.interval.ms');
    expect(fieldOfAppPath('application.config.foo')).toBe('foo');
    expect(fieldOfAppPath('nodes[0].id')).toBeNull();
  });

  it('attributes issues without a nodeId to the node their path points at', () => {
    const doc = { ...emptyDocument(), nodes: [{ id: 'a', kind: 'filter', config: {} }] };
    const view = toValidationView(doc, [
      { path: 'nodes[0].config.expression', code: 'invalid_config', message: 'missing' },
      { path: 'edges[0].to', nodeId: 'a', code: 'dangling_edge', message: 'dangling' },
      { path: 'application.id', code: 'invalid_schema', message: 'bad id' },
    ]);
    expect(view.byNode.get('a')?.map((p) => p.message)).toEqual(['missing', 'dangling']);
    expect(view.problems).toHaveLength(3);
  });
});
