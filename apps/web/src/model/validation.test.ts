import { describe, expect, it } from 'vitest';
import type { TopologyDocument } from '@streamwright/topology-model';
import {
  fieldOfAppPath,
  fieldOfPath,
  pathSegments,
  toValidationView,
  validationOf,
} from './validation.js';
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

describe('validation with the runtime’s topics', () => {
  it('judges a join by the partition count an existing topic has, and memoizes on it', () => {
    const doc = {
      ...emptyDocument(),
      topics: [
        { name: 'orders', partitions: 3, config: {} },
        { name: 'users', partitions: 3, config: {} },
      ],
      nodes: [
        { id: 'o', kind: 'source', config: { topic: 'orders' } },
        { id: 'u', kind: 'table', config: { topic: 'users' } },
        { id: 'j', kind: 'streamTableJoin', config: { joiner: 'left' } },
      ],
      edges: [
        { from: 'o', fromPort: 'out', to: 'j', toPort: 'left' },
        { from: 'u', fromPort: 'out', to: 'j', toPort: 'right' },
      ],
    } as TopologyDocument;
    expect(validationOf(doc).problems).toEqual([]);
    const existing = { users: 2 };
    const view = validationOf(doc, existing);
    expect(view.problems.map((p) => [p.code, p.nodeId])).toEqual([
      ['topics_not_copartitioned', 'j'],
    ]);
    expect(view.problems[0]?.fix).toContain('delete and recreate "users"');
    expect(view.byNode.get('j')).toHaveLength(1);
    expect(validationOf(doc, existing)).toBe(view);
  });
});
