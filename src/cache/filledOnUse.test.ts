// FilledOnUse (snapshot.ts): a snapshot's state database is decoded when first used, by any use.
import { describe, expect, test } from 'bun:test';
import { FilledOnUse } from './snapshot.ts';

const entries: [string, number][] = [['a', 1], ['b', 2], ['c', 3]];

function lazy(): { map: FilledOnUse<string, number>; fills: () => number } {
  let fills = 0;
  const map = new FilledOnUse<string, number>((set) => {
    fills++;
    for (const [k, v] of entries) set(k, v);
  });
  return { map, fills: () => fills };
}

describe('FilledOnUse', () => {
  const uses: [string, (m: Map<string, number>) => unknown][] = [
    ['get', (m) => m.get('b')],
    ['has', (m) => m.has('b')],
    ['size', (m) => m.size],
    ['set', (m) => m.set('d', 4)],
    ['delete', (m) => m.delete('a')],
    ['for…of', (m) => [...m]],
    ['new Map', (m) => new Map(m)],
    ['entries', (m) => [...m.entries()]],
    ['keys', (m) => [...m.keys()]],
    ['values', (m) => [...m.values()]],
    ['forEach', (m) => m.forEach(() => undefined)],
  ];
  for (const [name, use] of uses) {
    test(`${name}: fills once, first, then answers from the entries`, () => {
      const { map, fills } = lazy();
      expect(fills()).toBe(0);
      use(map);
      use(map);
      expect(fills()).toBe(1);
      expect(map.get('c')).toBe(3);
      expect(new Map(map).get('c')).toBe(3);
    });
  }

  test('what a use writes stays; clear before any use never fills', () => {
    const { map, fills } = lazy();
    map.set('a', 10);
    expect([...map]).toEqual([['a', 10], ['b', 2], ['c', 3]]);
    const other = lazy();
    other.map.clear();
    expect(other.map.size).toBe(0);
    expect(other.fills()).toBe(0);
    expect(fills()).toBe(1);
  });
});
